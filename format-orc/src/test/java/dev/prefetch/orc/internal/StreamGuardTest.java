package dev.prefetch.orc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.orc.internal.metadata.OrcChecks;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.impl.RecordReaderImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamGuardTest {

  @TempDir Path dir;

  /** A later orc-core or JDK could take the guard's hook away; then this fails first. */
  @Test
  void theGuardOfThisOrcCoreAndJdkIsInstalled() throws IOException {
    assertThat(StreamGuard.ORC_CORE.isAvailable()).isTrue();
    ScanCounters counters = new ScanCounters();
    try (Reader reader = open(writeFile());
        RecordReader rows = CheckedRecordReader.open(reader, reader.options(), checks(counters))) {
      assertThat(readAll(rows)).isEqualTo(100);
    }
    assertThat(counters.get(StreamGuard.UNGUARDED_READERS)).isZero();
    assertThat(counters.get(LengthGuards.UNCHECKED_READERS)).isZero();
    assertThat(StreamGuard.ORC_CORE.hasLogged()).isFalse();
    assertThat(LengthGuards.isAvailable()).isTrue();
  }

  @Test
  void aGuardThatCannotBeInstalledIsLoggedOnceAndCountedForEveryReader() throws IOException {
    StreamGuard missing = StreamGuard.install(RecordReaderImpl.class, "noSuchPlannerField");
    assertThat(missing.isAvailable()).isFalse();
    assertThat(missing.hasLogged()).isFalse();
    ScanCounters counters = new ScanCounters();
    Path file = writeFile();
    for (int i = 0; i < 2; i++) {
      try (Reader reader = open(file);
          RecordReader rows =
              CheckedRecordReader.open(reader, reader.options(), missing, checks(counters))) {
        assertThat(readAll(rows)).isEqualTo(100); // still reads valid files as orc-core does
      }
    }
    assertThat(missing.hasLogged()).isTrue();
    assertThat(counters.get(StreamGuard.UNGUARDED_READERS)).isEqualTo(2);
  }

  @Test
  void aFieldOfAnotherTypeIsNoGuard() {
    StreamGuard wrongType = StreamGuard.install(RecordReaderImpl.class, "rowIndexStride");
    assertThat(wrongType.isAvailable()).isFalse();
  }

  private static CheckedRecordReader.ReadChecks checks(ScanCounters counters) {
    return new CheckedRecordReader.ReadChecks(
        counters, 64 << 20, OrcChecks.MAX_ARRAY_BYTES, "test file");
  }

  private Path writeFile() throws IOException {
    Path file = dir.resolve("guard-" + System.nanoTime() + ".orc");
    TypeDescription schema = TypeDescription.fromString("struct<x:bigint>");
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      LongColumnVector x = (LongColumnVector) batch.cols[0];
      for (int i = 0; i < 100; i++) {
        x.vector[batch.size++] = i;
      }
      writer.addRowBatch(batch);
    }
    return file;
  }

  private static Reader open(Path file) throws IOException {
    return OrcFile.createReader(
        new org.apache.hadoop.fs.Path(file.toUri()), OrcFile.readerOptions(new Configuration()));
  }

  private static long readAll(RecordReader rows) throws IOException {
    VectorizedRowBatch batch = TypeDescription.fromString("struct<x:bigint>").createRowBatch();
    long count = 0;
    while (rows.nextBatch(batch)) {
      count += batch.size;
    }
    return count;
  }
}
