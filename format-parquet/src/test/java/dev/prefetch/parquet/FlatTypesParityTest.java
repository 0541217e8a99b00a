package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every flat type, encoding, page version and codec read equal to parquet-hadoop's reader. */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(60)
class FlatTypesParityTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          """
      message flat {
        required boolean b;
        optional boolean ob;
        optional int32 i32;
        optional int32 i8 (INTEGER(8,true));
        optional int32 i16 (INTEGER(16,true));
        optional int32 u8 (INTEGER(8,false));
        optional int32 u16 (INTEGER(16,false));
        optional int32 u32 (INTEGER(32,false));
        required int64 i64;
        optional int64 u64 (INTEGER(64,false));
        optional float f;
        optional double d;
        optional binary s (STRING);
        optional binary raw;
        optional binary e (ENUM);
        optional binary j (JSON);
        optional fixed_len_byte_array(16) uuid (UUID);
        optional fixed_len_byte_array(12) iv (INTERVAL);
        optional fixed_len_byte_array(2) h (FLOAT16);
        optional fixed_len_byte_array(5) fx;
        optional int32 dec32 (DECIMAL(9,2));
        optional int64 dec64 (DECIMAL(18,4));
        optional fixed_len_byte_array(16) decfx (DECIMAL(38,10));
        optional binary decbin (DECIMAL(20,3));
        optional fixed_len_byte_array(8) decsmall (DECIMAL(15,2));
        optional int32 date (DATE);
        optional int32 tms (TIME(MILLIS,true));
        optional int64 tus (TIME(MICROS,false));
        optional int64 tns (TIME(NANOS,true));
        optional int64 tsms (TIMESTAMP(MILLIS,true));
        optional int64 tsus (TIMESTAMP(MICROS,false));
        optional int64 tsns (TIMESTAMP(NANOS,true));
        optional int96 i96;
        required int64 id;
      }
      """);

  static final int ROWS = 3000;

  @TempDir static Path dir;

  /** Fills row {@code i}: a value per column, nulls at varying rates, repeats for dictionaries. */
  static void fill(int i, Group g) {
    Random random = new Random(i * 31L + 7);
    g.add("id", (long) i);
    boolean few = random.nextInt(50) == 0;
    g.add("b", i % 3 == 0);
    if (i % 5 != 0) {
      g.add("ob", random.nextBoolean());
    }
    if (i % 7 != 1) {
      g.add("i32", random.nextInt(10) == 0 ? Integer.MIN_VALUE : random.nextInt(1000) - 500);
    }
    if (!few) {
      g.add("i8", random.nextInt(256) - 128);
      g.add("i16", random.nextInt(65536) - 32768);
      g.add("u8", random.nextInt(256));
      g.add("u16", random.nextInt(65536));
      g.add("u32", random.nextInt());
    }
    g.add("i64", random.nextLong());
    if (i % 4 != 0) {
      g.add("u64", random.nextBoolean() ? -1L - random.nextInt(5) : random.nextLong());
    }
    if (i % 9 != 0) {
      float[] specials = {Float.NaN, -0.0f, 0.0f, Float.NEGATIVE_INFINITY, Float.MIN_VALUE};
      g.add(
          "f",
          random.nextInt(20) == 0
              ? specials[random.nextInt(specials.length)]
              : random.nextFloat() * 1000);
      g.add("d", random.nextInt(20) == 0 ? Double.NaN : random.nextGaussian() * 1e6);
    }
    if (i % 6 != 0) {
      g.add("s", "text-" + (random.nextInt(40)) + (i % 11 == 0 ? "-äöü-€" : ""));
      byte[] raw = new byte[random.nextInt(12)];
      random.nextBytes(raw);
      g.add("raw", Binary.fromConstantByteArray(raw));
      g.add("e", "E" + random.nextInt(4));
      g.add("j", "{\"k\":" + random.nextInt(100) + "}");
    }
    if (i % 8 != 3) {
      g.add("uuid", Binary.fromConstantByteArray(bytes(random, 16)));
      g.add("iv", Binary.fromConstantByteArray(bytes(random, 12)));
      g.add("h", Binary.fromConstantByteArray(bytes(random, 2)));
      g.add("fx", Binary.fromConstantByteArray(bytes(random, 5)));
    }
    if (i % 10 != 5) {
      g.add("dec32", random.nextInt(2_000_000_000) - 1_000_000_000);
      g.add("dec64", random.nextLong() % 999_999_999_999_999_999L);
      BigInteger big = new BigInteger(125, random).subtract(BigInteger.ONE.shiftLeft(124));
      g.add("decfx", Binary.fromConstantByteArray(fixed(big, 16)));
      BigInteger medium = new BigInteger(66, random).subtract(BigInteger.ONE.shiftLeft(65));
      g.add("decbin", Binary.fromConstantByteArray(medium.toByteArray()));
      BigInteger small = BigInteger.valueOf(random.nextLong() % 999_999_999_999_999L);
      g.add("decsmall", Binary.fromConstantByteArray(fixed(small, 8)));
    }
    if (i % 3 != 2) {
      g.add("date", random.nextInt(40000) - 20000);
      g.add("tms", random.nextInt(86_400_000));
      g.add("tus", random.nextLong(86_400_000_000L));
      g.add("tns", random.nextLong(86_400_000_000_000L));
      g.add("tsms", random.nextLong(4_000_000_000_000L) - 2_000_000_000_000L);
      g.add("tsus", random.nextLong(4_000_000_000_000_000L) - 2_000_000_000_000_000L);
      g.add("tsns", random.nextLong());
      ByteBuffer int96 = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
      int96.putLong(random.nextLong(86_400_000_000_000L));
      int96.putInt(2_440_588 + random.nextInt(60_000) - 30_000);
      g.add("i96", Binary.fromConstantByteArray(int96.array()));
    }
  }

  private static byte[] bytes(Random random, int n) {
    byte[] out = new byte[n];
    random.nextBytes(out);
    return out;
  }

  private static byte[] fixed(BigInteger value, int width) {
    byte[] minimal = value.toByteArray();
    byte[] out = new byte[width];
    byte pad = (byte) (value.signum() < 0 ? 0xFF : 0);
    java.util.Arrays.fill(out, pad);
    System.arraycopy(minimal, 0, out, width - minimal.length, minimal.length);
    return out;
  }

  static Stream<Arguments> writeSpecs() {
    List<Arguments> specs = new ArrayList<>();
    for (boolean dictionary : new boolean[] {true, false}) {
      for (WriterVersion version : WriterVersion.values()) {
        for (CompressionCodecName codec :
            new CompressionCodecName[] {
              CompressionCodecName.UNCOMPRESSED,
              CompressionCodecName.SNAPPY,
              CompressionCodecName.GZIP,
              CompressionCodecName.ZSTD,
              CompressionCodecName.LZ4_RAW
            }) {
          specs.add(Arguments.of(dictionary, version, codec));
        }
      }
    }
    return specs.stream();
  }

  @ParameterizedTest(name = "dictionary={0} {1} {2}")
  @MethodSource("writeSpecs")
  void everyFlatTypeMatchesParquetHadoopForEachEncodingAndCodec(
      boolean dictionary, WriterVersion version, CompressionCodecName codec) throws IOException {
    Path file =
        ParquetTestFiles.write(
            dir.resolve(dictionary + "-" + version + "-" + codec + ".parquet"),
            SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.encoded(dictionary, version)
                .codec(codec)
                .rowGroupBytes(96 << 10),
            FlatTypesParityTest::fill);
    List<List<Object>> expected = Rows.expected(file);
    assertThat(expected).hasSize(ROWS);
    try (ReadContext context = ReadContext.defaults()) {
      for (int[] setting : new int[][] {{1, 4096}, {4, 7}, {8, 1000}}) {
        ReadOptions options =
            ReadOptions.builder()
                .parallelism(setting[0])
                .batchSize(setting[1])
                .minReadBytes(0)
                .build();
        Rows.Scan scan = Rows.read(file, options, context);
        assertThat(scan.rows())
            .as("parallelism %s batch %s", setting[0], setting[1])
            .containsExactlyElementsOf(expected);
        for (int r = 0; r < scan.rowIndexes().size(); r++) {
          assertThat(scan.rowIndexes().get(r)).isEqualTo(r);
        }
      }
    }
  }

  /**
   * Several row intervals inside one row group: the pages a filter keeps by column index (a
   * page-filtered read whose pages leave gaps between the intervals), and row ranges that start and
   * end inside pages. Every flat type lands on its rows.
   */
  @ParameterizedTest(name = "dictionary={0} {1}")
  @MethodSource("dev.prefetch.parquet.ParquetTestFiles#encodings")
  void everyFlatTypeReadsSeveralRowIntervalsOfOneRowGroupAtTheirRows(
      boolean dictionary, WriterVersion version) throws IOException {
    Path file =
        ParquetTestFiles.write(
            dir.resolve("intervals-" + dictionary + "-" + version + ".parquet"),
            SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.encoded(dictionary, version)
                .codec(CompressionCodecName.SNAPPY)
                .pageRowLimit(100),
            FlatTypesParityTest::fill);
    List<List<Object>> expected = Rows.expected(file);
    try (ReadContext context = ReadContext.defaults()) {
      for (int batchSize : new int[] {7, 1000}) {
        ReadOptions.Builder options =
            ReadOptions.builder().parallelism(2).batchSize(batchSize).minReadBytes(0);
        Rows.Scan filtered = Rows.read(file, options.filter(SEVERAL_PAGES).build(), context);
        Rows.Scan ranged = Rows.read(file, options.filter(null).rowRanges(RANGES).build(), context);

        assertThat(filtered.rowIndexes())
            .as("batch %s", batchSize)
            .contains(0L, 129L, 1250L, 1419L, 2960L, 2999L)
            .doesNotContain(600L, 2500L);
        assertThat(ranged.rowIndexes())
            .as("batch %s", batchSize)
            .containsExactlyElementsOf(Rows.indexes(RANGES));
        for (Rows.Scan scan : List.of(filtered, ranged)) {
          for (int k = 0; k < scan.rows().size(); k++) {
            assertThat(scan.rows().get(k))
                .isEqualTo(expected.get(Math.toIntExact(scan.rowIndexes().get(k))));
          }
        }
      }
    }
  }

  /** Keeps three stretches of pages of one row group by the column index of {@code id}. */
  static final org.apache.parquet.filter2.compat.FilterCompat.Filter SEVERAL_PAGES =
      org.apache.parquet.filter2.compat.FilterCompat.get(
          org.apache.parquet.filter2.predicate.FilterApi.or(
              org.apache.parquet.filter2.predicate.FilterApi.lt(
                  org.apache.parquet.filter2.predicate.FilterApi.longColumn("id"), 130L),
              org.apache.parquet.filter2.predicate.FilterApi.or(
                  org.apache.parquet.filter2.predicate.FilterApi.and(
                      org.apache.parquet.filter2.predicate.FilterApi.gtEq(
                          org.apache.parquet.filter2.predicate.FilterApi.longColumn("id"), 1250L),
                      org.apache.parquet.filter2.predicate.FilterApi.lt(
                          org.apache.parquet.filter2.predicate.FilterApi.longColumn("id"), 1420L)),
                  org.apache.parquet.filter2.predicate.FilterApi.gtEq(
                      org.apache.parquet.filter2.predicate.FilterApi.longColumn("id"), 2960L))));

  static final List<dev.prefetch.RowRange> RANGES =
      List.of(
          new dev.prefetch.RowRange(3, 17),
          new dev.prefetch.RowRange(250, 251),
          new dev.prefetch.RowRange(640, 1210),
          new dev.prefetch.RowRange(2199, 2450),
          new dev.prefetch.RowRange(2990, 3000));

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.EnumSource(WriterVersion.class)
  void byteStreamSplitColumnsMatchParquetHadoop(WriterVersion version) throws IOException {
    Path file =
        ParquetTestFiles.write(
            dir.resolve("bss-" + version + ".parquet"),
            SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .dictionary(false)
                .version(version)
                .codec(CompressionCodecName.ZSTD),
            true,
            FlatTypesParityTest::fill);
    try (ReadContext context = ReadContext.defaults()) {
      Rows.Scan scan =
          Rows.read(
              file,
              ReadOptions.builder().parallelism(2).batchSize(500).minReadBytes(0).build(),
              context);
      assertThat(scan.rows()).containsExactlyElementsOf(Rows.expected(file));
    }
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(
            org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()),
                new org.apache.hadoop.conf.Configuration()))) {
      assertThat(reader.getRowGroups().get(0).getColumns().toString())
          .contains("BYTE_STREAM_SPLIT");
    }
  }

  @Test
  void typesFollowTheDocumentedMapping() throws IOException {
    Path file =
        ParquetTestFiles.write(
            dir.resolve("mapping.parquet"),
            SCHEMA,
            10,
            ParquetTestFiles.WriteSpec.defaults(),
            FlatTypesParityTest::fill);
    try (ReadContext context = ReadContext.defaults();
        var reader = dev.prefetch.Readers.open(file, ReadOptions.defaults(), context)) {
      var schema = reader.schema();
      assertThat(schema.field("b").orElseThrow().nullable()).isFalse();
      assertThat(schema.field("i8").orElseThrow().type()).isEqualTo(DataType.int8());
      assertThat(schema.field("i16").orElseThrow().type()).isEqualTo(DataType.int16());
      assertThat(schema.field("u8").orElseThrow().type()).isEqualTo(DataType.int16());
      assertThat(schema.field("u16").orElseThrow().type()).isEqualTo(DataType.int32());
      assertThat(schema.field("u32").orElseThrow().type()).isEqualTo(DataType.int64());
      assertThat(schema.field("u64").orElseThrow().type()).isEqualTo(DataType.decimal(20, 0));
      assertThat(schema.field("s").orElseThrow().type()).isEqualTo(DataType.string());
      assertThat(schema.field("e").orElseThrow().type()).isEqualTo(DataType.string());
      assertThat(schema.field("j").orElseThrow().type()).isEqualTo(DataType.string());
      assertThat(schema.field("raw").orElseThrow().type()).isEqualTo(DataType.binary());
      assertThat(schema.field("uuid").orElseThrow().type()).isEqualTo(DataType.fixedBinary(16));
      assertThat(schema.field("iv").orElseThrow().type()).isEqualTo(DataType.fixedBinary(12));
      assertThat(schema.field("h").orElseThrow().type()).isEqualTo(DataType.float32());
      assertThat(schema.field("dec32").orElseThrow().type()).isEqualTo(DataType.decimal(9, 2));
      assertThat(schema.field("decfx").orElseThrow().type()).isEqualTo(DataType.decimal(38, 10));
      assertThat(schema.field("date").orElseThrow().type()).isEqualTo(DataType.date());
      assertThat(schema.field("tms").orElseThrow().type())
          .isEqualTo(DataType.time(DataType.TimeUnit.MILLIS, true));
      assertThat(schema.field("tsus").orElseThrow().type())
          .isEqualTo(DataType.timestamp(DataType.TimeUnit.MICROS, false));
      assertThat(schema.field("i96").orElseThrow().type())
          .isEqualTo(DataType.timestamp(DataType.TimeUnit.MICROS, true));
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
