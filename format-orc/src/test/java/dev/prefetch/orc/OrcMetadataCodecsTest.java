package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.impl.OrcCodecPool;
import org.apache.orc.impl.RecordReaderImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An ORC file's metadata (the tail's footer and stripe statistics, the stripe footers) decompresses
 * with the reader's own codecs, as its streams do, never with orc-core's: an engine's orc-core may
 * live in a class loader that cannot see a codec library the reader carries (Spark's cannot see
 * brotli4j in a bundle given as {@code spark.jars}), so a read that had orc-core decompress
 * anything fails there. orc-core's codec pool tells: every codec orc-core decompressed with goes
 * back to it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcMetadataCodecsTest {

  private static final int ROWS = 10_000;

  @TempDir Path dir;

  /** Five stripes of 2,000 rows, strides of 1,000 rows, a sorted "id" column. */
  private Path write(CompressionKind kind) throws IOException {
    Path file =
        OrcTestFiles.write(
            dir.resolve(kind.name().toLowerCase(java.util.Locale.ROOT) + ".orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, ROWS).stripeRows(2000).codec(kind));
    OrcCodecPool.clear(); // the codecs orc-core's writer used
    return file;
  }

  private static org.apache.hadoop.fs.Path hadoop(Path file) {
    return new org.apache.hadoop.fs.Path(file.toUri());
  }

  @ParameterizedTest
  @EnumSource(value = CompressionKind.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void aReadPrunedByStripeStatisticsDecompressesNothingWithOrcCore(CompressionKind kind)
      throws IOException {
    Path file = write(kind);
    SearchArgument sarg =
        SearchArgumentFactory.newBuilder().lessThan("id", PredicateLeaf.Type.LONG, 1500L).build();
    ReadOptions options =
        ReadOptions.builder()
            .minReadBytes(0)
            .parallelism(2)
            .property(OrcOptions.NATURAL_READ_SIZE, "1")
            .filter(sarg)
            .build();
    List<Rows.Row> rows;
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      rows = Rows.ours(reader);
      // The stripe statistics were read: only the first stripe's two row groups are left.
      assertThat(reader.metrics().rangesPlanned()).isEqualTo(2);
    }
    assertThat(OrcCodecPool.getPoolSize(kind)).as("codecs orc-core decompressed with").isZero();
    // The pool tells: orc-core's own read of the stripe statistics hands its codec back to it.
    try (Reader reader =
        OrcFile.createReader(hadoop(file), OrcFile.readerOptions(new Configuration()))) {
      OrcCodecPool.clear();
      assertThat(reader.getStripeStatistics()).hasSize(5);
    }
    assertThat(OrcCodecPool.getPoolSize(kind)).isPositive();
    assertThat(rows)
        .hasSize(2000)
        .isEqualTo(Rows.reference(file, List.of(), sarg, new Configuration(), null));
  }

  @ParameterizedTest
  @EnumSource(value = CompressionKind.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void stripeFootersDecompressWithoutOrcCoreAndEqualOrcCoresOwn(CompressionKind kind)
      throws IOException {
    Path file = write(kind);
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf);
    try (Reader reader = OrcFile.createReader(hadoop(file), OrcFile.readerOptions(conf))) {
      List<Integer> stripes = new ArrayList<>();
      List<OrcProto.StripeFooter> expected = new ArrayList<>();
      try (RecordReaderImpl records = (RecordReaderImpl) reader.rows()) {
        for (StripeInformation stripe : reader.getStripes()) {
          stripes.add(stripes.size());
          expected.add(records.readStripeFooter(stripe));
        }
      }
      assertThat(OrcCodecPool.getPoolSize(kind)).as("orc-core's reads used the pool").isPositive();
      OrcCodecPool.clear();
      List<OrcProto.StripeFooter> footers =
          OrcStripeFooters.read(fs, hadoop(file), reader, stripes);
      assertThat(OrcCodecPool.getPoolSize(kind)).as("codecs orc-core decompressed with").isZero();
      assertThat(footers).hasSize(5).isEqualTo(expected);
    }
  }

  /** {@code source} with its compressed bytes {@code [from, from + length)} overwritten. */
  private Path corrupted(Path source, String name, long from, int length) throws IOException {
    byte[] bytes = Files.readAllBytes(source);
    for (int i = 0; i < length; i++) {
      bytes[(int) from + i] = (byte) 0xFF; // no deflate block starts with these bits
    }
    return Files.write(dir.resolve(name), bytes);
  }

  private static OrcProto.PostScript postScript(byte[] file) throws IOException {
    int psLength = file[file.length - 1] & 0xFF;
    return OrcProto.PostScript.parseFrom(
        java.nio.ByteBuffer.wrap(file, file.length - 1 - psLength, psLength));
  }

  @Test
  void stripeStatisticsThatDoNotDecompressAreACorruptFileNamingIt() throws IOException {
    Path source = write(CompressionKind.ZLIB);
    byte[] valid = Files.readAllBytes(source);
    OrcProto.PostScript ps = postScript(valid);
    int psLength = valid[valid.length - 1] & 0xFF;
    long metadata = valid.length - 1 - psLength - ps.getFooterLength() - ps.getMetadataLength();
    // the block's header stays; its deflate bytes are garbage
    Path file = corrupted(source, "bad-statistics.orc", metadata + 3, 8);
    try (ReadContext context = ReadContext.defaults()) {
      assertThatThrownBy(() -> Readers.open(file, ReadOptions.builder().build(), context).close())
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(file.getFileName().toString())
          .hasMessageContaining("stripe statistics");
    }
  }

  @Test
  void aStripeFooterThatDoesNotDecompressIsACorruptFileNamingItAndTheStripe() throws IOException {
    Path valid = write(CompressionKind.ZLIB);
    Configuration conf = new Configuration();
    StripeInformation second;
    try (Reader reader = OrcFile.createReader(hadoop(valid), OrcFile.readerOptions(conf))) {
      second = reader.getStripes().get(1);
    }
    long footer = second.getOffset() + second.getIndexLength() + second.getDataLength();
    Path file = corrupted(valid, "bad-stripe-footer.orc", footer + 3, 8);
    try (Reader reader = OrcFile.createReader(hadoop(file), OrcFile.readerOptions(conf))) {
      assertThatThrownBy(
              () ->
                  OrcStripeFooters.read(
                      FileSystem.getLocal(conf), hadoop(file), reader, List.of(1)))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(file.getFileName().toString())
          .hasMessageContaining("stripe 1");
    }
  }
}
