package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.testing.Checksum;
import dev.prefetch.testing.FaultInjectingFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cached tail of an ORC file belongs to the version that was read: a rewrite in place between
 * the file's status and the tail read is never cached under the old version's identity.
 */
@Timeout(60)
class TailIdentityTest {

  @TempDir Path dir;

  private Path local;

  @AfterEach
  void forgetFaults() {
    if (local != null) {
      FaultInjectingFileSystem.faults(local).clear();
    }
  }

  private static Path write(Path file, int rows, int variant) throws IOException {
    OrcTestFiles.Spec spec = OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, rows).stripeRows(2000);
    return OrcTestFiles.write(
        file,
        new OrcTestFiles.Spec(
            spec.schema(),
            spec.rows(),
            spec.codec(),
            spec.rowIndexStride(),
            spec.stripeRows(),
            spec.nulls(),
            variant + 1,
            spec.bloomFilterColumns()));
  }

  /** The rows and checksum of a scan. */
  private record Scan(long rows, String checksum) {}

  private static Scan scan(DataFile file, ReadContext context) throws IOException {
    ReadOptions options = ReadOptions.builder().minReadBytes(0).parallelism(2).build();
    try (BatchReader reader = Readers.open(file, options, context)) {
      Checksum checksum = new Checksum(reader.schema().fields().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        checksum.add(batch);
      }
      return new Scan(checksum.rows(), checksum.value());
    }
  }

  @Test
  void aFileRewrittenWhileItsTailIsReadIsCachedUnderTheVersionReadNotTheOneStatedBefore()
      throws IOException {
    local = write(dir.resolve("data.orc"), 6000, 0);
    Path otherPath = write(dir.resolve("other.orc"), 4000, 1);
    byte[] original = Files.readAllBytes(local);
    FileTime originalTime = Files.getLastModifiedTime(local);
    byte[] rewrite = Files.readAllBytes(otherPath);
    Configuration conf = FaultInjectingFileSystem.configuration();
    DataFile file = DataFile.of(FaultInjectingFileSystem.path(local));
    DataFile other = DataFile.of(FaultInjectingFileSystem.path(otherPath));
    Scan expectedOriginal = scan(file, ReadContext.builder().configuration(conf).build());
    Scan expectedRewrite = scan(other, ReadContext.builder().configuration(conf).build());

    MemoryCache cache = MemoryCache.builder().maximumBytes(1 << 20).build();
    try (ReadContext context = ReadContext.builder().configuration(conf).cache(cache).build()) {
      // The planner takes the status of the original, then opens the file to read its tail:
      // the rewrite lands in between.
      FaultInjectingFileSystem.faults(local).onNextOpen(() -> Files.write(local, rewrite));
      assertThat(scan(file, context)).as("the scan during the rewrite").isEqualTo(expectedRewrite);

      // The original comes back with its length and modification time: the identity it had when
      // the rewrite was read. The cache must not answer with the rewrite's tail.
      Files.write(local, original);
      Files.setLastModifiedTime(local, originalTime);
      assertThat(scan(file, context)).as("the original again").isEqualTo(expectedOriginal);
    }
  }
}
