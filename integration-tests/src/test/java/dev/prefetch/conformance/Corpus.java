package dev.prefetch.conformance;

import dev.prefetch.it.TestFiles;
import dev.prefetch.orc.testing.OrcWriterCorpus;
import dev.prefetch.orc.testing.OrcWriterCorpus.OrcWriterFile;
import dev.prefetch.parquet.testing.PageHeaders;
import dev.prefetch.parquet.testing.WritingCodecs;
import dev.prefetch.parquet.testing.WritingCodecs.Lz4Framing;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * The conformance corpus: small files (a few hundred rows each) written at test time, offline, by
 * real writers, holding what other implementations emit. parquet-java's low-level writer (its Group
 * API over hand-made schemas, with {@link WritingCodecs} for other writers' page compression) for
 * legacy list and map layouts, FLOAT16, INT96 extremes, unsigned integers, decimals of every
 * physical type, every encoding and codec, both page versions, empty pages, with and without
 * statistics, page indexes and checksums; DuckDB for its own layouts and codecs; Arrow C++'s
 * Parquet writer; orc-core for every ORC type and codec, unions, roots that are not structs and the
 * 0.11 file version; and the ORC files of other writers (the C++ writer, Trino, orc-core's legacy
 * settings) that format-orc's {@link OrcWriterCorpus} lists.
 *
 * <p>Reusable: {@link #write(Path)} writes every file into a directory and describes each; a test
 * of another module (an Arrow module, say) depends on this module's test-jar.
 */
public final class Corpus {

  /** Rows of most files. */
  public static final int ROWS = 240;

  private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;

  private final Path dir;
  private final List<CorpusFile> files = new ArrayList<>();

  private Corpus(Path dir) {
    this.dir = dir;
  }

  /** Writes every file of the corpus into {@code dir}. */
  public static List<CorpusFile> write(Path dir) throws IOException {
    Corpus corpus = new Corpus(dir);
    corpus.parquetJava();
    corpus.duckDb();
    corpus.orcCore();
    corpus.arrowCpp();
    corpus.otherOrcWriters();
    return List.copyOf(corpus.files);
  }

  /** What is known about a file beyond its bytes, as it is added. */
  private final class Entry {
    final String name;
    final Path path;
    final String format;
    final String writer;
    String arrowUnreadable;
    String sameValuesAs;
    final Map<String, String> arrowDiffers = new HashMap<>();
    final Map<String, List<List<Object>>> expected = new HashMap<>();

    Entry(String name, String format, String writer) {
      this.name = name;
      this.path = dir.resolve(name + "." + format);
      this.format = format;
      this.writer = writer;
    }

    void add() {
      files.add(
          new CorpusFile(
              name, path, format, writer, arrowUnreadable, arrowDiffers, expected, sameValuesAs));
    }
  }

  // ---------------------------------------------------------------- parquet-java

  private static final Configuration CONF = new Configuration();

  static final String ARROW_WITHOUT_BROTLI =
      "the Arrow C++ library in arrow-dataset 18.3.0's jar"
          + " is built without BROTLI ('Support for codec 'brotli' not built'); its values are"
          + " checked against parquet-hadoop (whose decoders read the pages brotli4j decompressed)"
          + " and against Arrow C++'s read of a file of the same rows in another codec";

  private void parquet(
      Entry entry,
      String schema,
      int rows,
      Consumer<ExampleParquetWriter.Builder> settings,
      BiConsumer<Integer, Group> fill)
      throws IOException {
    MessageType type = MessageTypeParser.parseMessageType(schema);
    SimpleGroupFactory groups = new SimpleGroupFactory(type);
    ExampleParquetWriter.Builder builder =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(entry.path.toUri()))
            .withConf(CONF)
            .withType(type)
            .withPageRowCountLimit(50)
            .withPageSize(4 << 10)
            .withRowGroupSize(64L << 10);
    settings.accept(builder);
    try (ParquetWriter<Group> writer = builder.build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        fill.accept(i, g);
        writer.write(g);
      }
    }
  }

  private void parquetJava() throws IOException {
    legacyLists();
    tupleList();
    unannotatedRepeated();
    legacyMaps();
    float16();
    int96();
    unsigned();
    decimals();
    for (WriterVersion version : WriterVersion.values()) {
      encodings(version);
    }
    codecs();
    statisticsAndIndexes();
  }

  private void legacyLists() throws IOException {
    Entry e = new Entry("legacy-lists", "parquet", "parquet-java");
    parquet(
        e,
        "message m { required int32 id;"
            + " optional group prim_array (LIST) { repeated int32 array; }"
            + " optional group struct_array (LIST) { repeated group array { required int32 x; } }"
            + " optional group bag_list (LIST) { repeated group bag { optional int32 array_element; } }"
            + " optional group named (LIST) { repeated group named_tuple { required binary s (UTF8); } }"
            + " optional group pairs (LIST) { repeated group pair { required int32 a; optional int32 b; } }"
            + " optional group modern (LIST) { repeated group list { optional int32 element; } } }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          if (i % 5 == 0) {
            return; // every list null
          }
          int n = i % 4;
          Group prim = g.addGroup("prim_array");
          Group struct = g.addGroup("struct_array");
          Group bag = g.addGroup("bag_list");
          Group named = g.addGroup("named");
          Group pairs = g.addGroup("pairs");
          Group modern = g.addGroup("modern");
          for (int k = 0; k < n; k++) {
            prim.add("array", i * 10 + k);
            struct.addGroup("array").add("x", i - k);
            Group bagged = bag.addGroup("bag");
            if (k != 1) {
              bagged.add("array_element", k * 7);
            }
            named.addGroup("named_tuple").add("s", "s" + i + "." + k);
            Group pair = pairs.addGroup("pair").append("a", k);
            if (k % 2 == 0) {
              pair.add("b", -k);
            }
            Group element = modern.addGroup("list");
            if (k != 2) {
              element.add("element", k + i);
            }
          }
        });
    e.add();
  }

  /**
   * A one-field repeated group named {@code <other name>_tuple}: by the specification only {@code
   * <list name>_tuple} makes a two-level list, so this is a three-level list of its field (Arrow
   * C++ and parquet-java agree); checked against hand-written values too.
   */
  private void tupleList() throws IOException {
    Entry e = new Entry("tuple-named-list", "parquet", "parquet-java");
    parquet(
        e,
        "message m { required int32 id;"
            + " optional group things (LIST) { repeated group item_tuple { required int64 v; } } }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          Group things = g.addGroup("things");
          for (int k = 0; k < i % 3; k++) {
            things.addGroup("item_tuple").add("v", (long) i * k);
          }
        });
    List<List<Object>> things = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      List<Object> row = new ArrayList<>();
      row.add((long) (i % 3));
      for (int k = 0; k < i % 3; k++) {
        row.add((long) i * k);
      }
      things.add(row);
    }
    e.expected.put("things", things);
    e.add();
  }

  private void unannotatedRepeated() throws IOException {
    Entry e = new Entry("unannotated-repeated", "parquet", "parquet-java");
    parquet(
        e,
        "message m { required int32 id; repeated int32 nums;"
            + " repeated group pts { required double x; optional double y; }"
            + " optional group s { repeated binary tags (UTF8); required int32 k; } }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          for (int k = 0; k < i % 4; k++) {
            g.add("nums", i + k);
          }
          for (int k = 0; k < i % 3; k++) {
            Group p = g.addGroup("pts").append("x", i * 0.5 + k);
            if (k == 0) {
              p.add("y", -i * 0.25);
            }
          }
          if (i % 7 != 0) {
            Group s = g.addGroup("s");
            for (int k = 0; k < i % 2 + 1; k++) {
              s.add("tags", "t" + (i + k));
            }
            s.add("k", i * 3);
          }
        });
    e.add();
  }

  private void legacyMaps() throws IOException {
    Entry e = new Entry("legacy-maps", "parquet", "parquet-java");
    parquet(
        e,
        "message m { required int32 id;"
            + " optional group m1 (MAP) { repeated group map (MAP_KEY_VALUE) {"
            + "   required binary key (UTF8); optional int32 value; } }"
            + " optional group m2 (MAP_KEY_VALUE) { repeated group map {"
            + "   required int32 key; optional binary value (UTF8); } }"
            + " optional group m3 (MAP) { repeated group entries { required int64 k; optional double v; } } }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          if (i % 6 == 0) {
            return;
          }
          Group m1 = g.addGroup("m1");
          Group m2 = g.addGroup("m2");
          Group m3 = g.addGroup("m3");
          for (int k = 0; k < i % 3; k++) {
            Group a = m1.addGroup("map").append("key", "k" + k);
            if (k != 1) {
              a.add("value", i + k);
            }
            Group b = m2.addGroup("map").append("key", k);
            if (k != 0) {
              b.add("value", "v" + i);
            }
            Group c = m3.addGroup("entries").append("k", (long) k * i);
            c.add("v", k / 4.0);
          }
        });
    e.add();
  }

  static final short[] HALVES = {
    0x0000,
    (short) 0x8000,
    0x0001,
    (short) 0x8001,
    0x03FF,
    0x0400,
    0x3C00,
    0x3E00,
    (short) 0xBC00,
    0x3555,
    0x7BFF,
    (short) 0xFBFF,
    0x7C00,
    (short) 0xFC00,
    0x7E00,
    0x4248
  };

  private void float16() throws IOException {
    Entry e = new Entry("float16", "parquet", "parquet-java");
    parquet(
        e,
        "message m { required int32 id; optional fixed_len_byte_array(2) h (FLOAT16); }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          if (i % 9 != 8) {
            short h = HALVES[i % HALVES.length];
            g.add("h", Binary.fromConstantByteArray(new byte[] {(byte) h, (byte) (h >> 8)}));
          }
        });
    e.add();
  }

  static final LocalDateTime[] INT96_TIMES = {
    LocalDateTime.of(1, 1, 1, 0, 0),
    LocalDateTime.of(1582, 10, 4, 23, 59, 59, 999_999_000),
    LocalDateTime.of(1677, 9, 21, 0, 12, 43, 145_224_192),
    LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
    LocalDateTime.of(1970, 1, 1, 0, 0),
    LocalDateTime.of(2024, 2, 29, 12, 0, 0, 123_456_789),
    LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_807),
    LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999),
  };

  private void int96() throws IOException {
    Entry e = new Entry("int96-extremes", "parquet", "parquet-java");
    List<List<Object>> expected = new ArrayList<>();
    parquet(
        e,
        "message m { required int32 id; optional int96 ts; }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          if (i % 10 == 9) {
            return;
          }
          LocalDateTime t = INT96_TIMES[i % INT96_TIMES.length];
          ByteBuffer bytes = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
          bytes
              .putLong(t.toLocalTime().toNanoOfDay())
              .putInt((int) (t.toLocalDate().toEpochDay() + JULIAN_DAY_OF_EPOCH));
          g.add("ts", Binary.fromConstantByteArray(bytes.array()));
        });
    for (int i = 0; i < ROWS; i++) {
      LocalDateTime t = INT96_TIMES[i % INT96_TIMES.length];
      expected.add(
          List.of(
              i % 10 == 9
                  ? Canonical.NULL
                  : t.toLocalDate().toEpochDay() * 86_400_000_000L
                      + t.toLocalTime().toNanoOfDay() / 1000));
    }
    e.expected.put("ts", expected);
    e.arrowDiffers.put(
        "ts",
        "Arrow C++ reads INT96 as nanoseconds since the epoch by default"
            + " (coerce_int96_timestamp_unit, not settable through arrow-dataset's Java scan"
            + " options), which wrap silently for years before 1677 and after 2262 (0001-01-01,"
            + " 1582-10-04, 9999-12-31 here); we read microseconds, as Spark and DuckDB do, where"
            + " every year fits, and parquet-hadoop's values and the hand-written ones agree");
    e.add();
  }

  private void unsigned() throws IOException {
    Entry e = new Entry("unsigned-ints", "parquet", "parquet-java");
    long[] u8 = {0, 1, 127, 128, 254, 255};
    long[] u16 = {0, 1, 32767, 32768, 65534, 65535};
    long[] u32 = {0, 1, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFEL, 0xFFFF_FFFFL};
    long[] u64 = {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, -2, -1};
    parquet(
        e,
        "message m { required int32 id;"
            + " optional int32 u8 (INTEGER(8,false)); optional int32 u16 (INTEGER(16,false));"
            + " optional int32 u32 (INTEGER(32,false)); optional int64 u64 (INTEGER(64,false));"
            + " optional int32 legacy8 (UINT_8); optional int64 legacy64 (UINT_64); }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          if (i % 11 == 10) {
            return;
          }
          int k = i % 6;
          g.add("u8", (int) u8[k]);
          g.add("u16", (int) u16[k]);
          g.add("u32", (int) u32[k]);
          g.add("u64", u64[k]);
          g.add("legacy8", (int) u8[(k + 3) % 6]);
          g.add("legacy64", u64[(k + 3) % 6]);
        });
    e.add();
  }

  private void decimals() throws IOException {
    Entry e = new Entry("decimals", "parquet", "parquet-java");
    BigInteger max38 = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
    BigInteger max25 = BigInteger.TEN.pow(25).subtract(BigInteger.ONE);
    parquet(
        e,
        "message m { required int32 id;"
            + " optional int32 d32 (DECIMAL(9,2)); optional int64 d64 (DECIMAL(18,4));"
            + " optional fixed_len_byte_array(16) dfx (DECIMAL(38,10));"
            + " optional binary dbin (DECIMAL(25,5)); optional fixed_len_byte_array(5) dsmall (DECIMAL(10,3)); }",
        ROWS,
        b -> {},
        (i, g) -> {
          g.add("id", i);
          if (i % 13 == 12) {
            return;
          }
          int sign = i % 2 == 0 ? 1 : -1;
          int k = i % 4;
          g.add("d32", k == 0 ? sign * 999_999_999 : sign * i * 101);
          g.add("d64", k == 0 ? sign * 999_999_999_999_999_999L : sign * (long) i * 1_000_003L);
          BigInteger big = k == 0 ? max38 : BigInteger.valueOf(i).pow(9);
          g.add("dfx", Binary.fromConstantByteArray(fixed(sign > 0 ? big : big.negate(), 16)));
          BigInteger b25 = k == 0 ? max25 : BigInteger.valueOf(i * 7L).pow(5);
          g.add(
              "dbin", Binary.fromConstantByteArray((sign > 0 ? b25 : b25.negate()).toByteArray()));
          g.add(
              "dsmall",
              Binary.fromConstantByteArray(
                  fixed(BigInteger.valueOf(sign * (long) i * 12_345L), 5)));
        });
    e.add();
  }

  /** {@code value} as {@code length} big-endian two's complement bytes. */
  static byte[] fixed(BigInteger value, int length) {
    byte[] minimal = value.toByteArray();
    byte[] out = new byte[length];
    byte pad = (byte) (value.signum() < 0 ? 0xFF : 0);
    java.util.Arrays.fill(out, pad);
    System.arraycopy(minimal, 0, out, length - minimal.length, minimal.length);
    return out;
  }

  /**
   * BYTE_STREAM_SPLIT for every type that allows it (FLOAT, DOUBLE, INT32, INT64,
   * FIXED_LEN_BYTE_ARRAY), a dictionary that falls back to plain mid-chunk, and with V2 pages the
   * DELTA encodings parquet-java chooses (DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY).
   */
  private void encodings(WriterVersion version) throws IOException {
    Entry e =
        new Entry(
            "encodings-" + (version == WriterVersion.PARQUET_1_0 ? "v1" : "v2"),
            "parquet",
            "parquet-java");
    parquet(
        e,
        "message m { required int32 id; optional float f; optional double d;"
            + " optional int32 i; optional int64 l; optional fixed_len_byte_array(4) fx;"
            + " optional binary s (UTF8); optional binary low (UTF8); optional int64 plain_l; }",
        ROWS,
        b ->
            b.withWriterVersion(version)
                .withDictionaryPageSize(256)
                .withByteStreamSplitEncoding("f", true)
                .withByteStreamSplitEncoding("d", true)
                .withByteStreamSplitEncoding("i", true)
                .withByteStreamSplitEncoding("l", true)
                .withByteStreamSplitEncoding("fx", true)
                .withDictionaryEncoding("plain_l", false),
        (i, g) -> {
          g.add("id", i);
          if (i % 8 == 7) {
            return;
          }
          g.add("f", i * 1.25f - 50);
          g.add("d", Math.sqrt(i) * (i % 2 == 0 ? 1 : -1));
          g.add("i", i * 65_537 - 1_000_000);
          g.add("l", (long) i * 4_294_967_311L);
          g.add(
              "fx",
              Binary.fromConstantByteArray(new byte[] {(byte) (int) i, 1, (byte) (i >> 3), 7}));
          // four values fill the first pages' dictionary; then distinct values overflow its
          // 256 bytes and the chunk goes on in the fallback encoding
          g.add("s", i < 120 ? "v" + (i % 4) : "value-" + i + "-" + "x".repeat(i % 9));
          g.add("low", "c" + (i % 5));
          g.add("plain_l", (long) i * i - 7);
        });
    e.add();
  }

  /**
   * Every codec in both page versions; in V2 files the first page of {@code x} holds only nulls, so
   * its data section is empty, and it is marked compressed as older parquet-java writers did.
   */
  private void codecs() throws IOException {
    record Codec(String name, CompressionCodecName codec, WritingCodecs codecs) {}
    List<Codec> all =
        List.of(
            new Codec("uncompressed", CompressionCodecName.UNCOMPRESSED, WritingCodecs.defaults()),
            new Codec("snappy", CompressionCodecName.SNAPPY, WritingCodecs.defaults()),
            new Codec(
                "gzip-members",
                CompressionCodecName.GZIP,
                new WritingCodecs(Lz4Framing.HADOOP, true, false)),
            new Codec("zstd", CompressionCodecName.ZSTD, WritingCodecs.defaults()),
            new Codec("lz4-raw", CompressionCodecName.LZ4_RAW, WritingCodecs.defaults()),
            new Codec("lz4-hadoop", CompressionCodecName.LZ4, WritingCodecs.defaults()),
            new Codec(
                "lz4-block",
                CompressionCodecName.LZ4,
                new WritingCodecs(Lz4Framing.RAW, false, false)),
            new Codec("brotli", CompressionCodecName.BROTLI, WritingCodecs.defaults()));
    for (Codec codec : all) {
      for (WriterVersion version : WriterVersion.values()) {
        boolean v2 = version == WriterVersion.PARQUET_2_0;
        Entry e =
            new Entry("codec-" + codec.name() + (v2 ? "-v2" : "-v1"), "parquet", "parquet-java");
        parquet(
            e,
            "message m { required int64 id; optional binary s (UTF8); optional double x;"
                + " optional group l (LIST) { repeated group list { optional int32 element; } } }",
            ROWS,
            b ->
                b.withWriterVersion(version)
                    .withCompressionCodec(codec.codec())
                    .withCodecFactory(codec.codecs())
                    .withByteStreamSplitEncoding("x", true),
            (i, g) -> {
              g.add("id", (long) i * 37);
              if (i % 4 != 0) {
                g.add("s", "row " + i + " " + "abc".repeat(i % 6));
              }
              if (i >= 100) { // parquet-java checks page sizes from row 100 on
                g.add("x", i / 3.0);
              }
              Group l = g.addGroup("l");
              for (int k = 0; k < i % 3; k++) {
                l.addGroup("list").add("element", i - k);
              }
            });
        if (codec.codec() == CompressionCodecName.BROTLI) {
          e.arrowUnreadable = ARROW_WITHOUT_BROTLI;
          e.sameValuesAs = "codec-uncompressed" + (v2 ? "-v2" : "-v1");
        }
        if (v2 && codec.codec() != CompressionCodecName.UNCOMPRESSED) {
          if (PageHeaders.markEmptyV2DataCompressed(e.path) == 0) {
            throw new IllegalStateException(e.name + " has no empty V2 data section");
          }
        }
        e.add();
      }
    }
  }

  private void statisticsAndIndexes() throws IOException {
    String schema = "message m { required int64 id; optional binary s (UTF8); optional int32 n; }";
    BiConsumer<Integer, Group> fill =
        (i, g) -> {
          g.add("id", (long) i);
          if (i % 3 != 0) {
            g.add("s", "s" + (i % 17));
          }
          g.add("n", i * 3 - 100);
        };
    Entry none = new Entry("no-statistics-no-crc", "parquet", "parquet-java");
    parquet(
        none,
        schema,
        ROWS,
        b -> b.withStatisticsEnabled(false).withPageWriteChecksumEnabled(false),
        fill);
    none.add();
    Entry all = new Entry("statistics-page-index-crc", "parquet", "parquet-java");
    parquet(
        all,
        schema,
        ROWS,
        b ->
            b.withStatisticsEnabled(true)
                .withPageWriteChecksumEnabled(true)
                .withBloomFilterEnabled("s", true),
        fill);
    all.add();
  }

  // ---------------------------------------------------------------- DuckDB

  private void duckDb() throws IOException {
    String select =
        "SELECT range::INTEGER AS id,"
            + " (range % 128 - 64)::TINYINT AS ti, (range * 77 % 30000)::SMALLINT AS si,"
            + " CASE WHEN range % 5 = 0 THEN 255 ELSE range % 256 END::UTINYINT AS ut,"
            + " CASE WHEN range % 5 = 0 THEN 65535 ELSE range END::USMALLINT AS us,"
            + " CASE WHEN range % 5 = 0 THEN 4294967295 ELSE range * 1000 END::UINTEGER AS ui,"
            + " CASE WHEN range % 5 = 0 THEN 18446744073709551615 ELSE range END::UBIGINT AS ub,"
            + " (range * 1.5)::FLOAT AS fl, (range / 7.0)::DOUBLE AS db,"
            + " (range * 3.25)::DECIMAL(9,2) AS d9, (range * -12345.6789)::DECIMAL(18,4) AS d18,"
            + " (range * 1234567890.0123456789)::DECIMAL(38,10) AS d38,"
            + " CASE WHEN range % 4 = 0 THEN NULL ELSE 'str' || range END AS v,"
            + " ('\\x' || lpad(to_hex(range % 256), 2, '0'))::BLOB AS bl,"
            + " DATE '1970-01-01' + (range * 37 - 3000)::INTEGER AS dt,"
            + " TIME '00:00:00' + INTERVAL (range * 61) SECOND AS tm,"
            + " TIMESTAMP '2020-01-01 00:00:00' + INTERVAL (range * 3600 + 17) SECOND AS ts,"
            + " (TIMESTAMP '1900-01-01 00:00:00' + INTERVAL (range * 86400) SECOND)::TIMESTAMP_MS AS ts_ms,"
            + " (TIMESTAMP '2000-01-01 00:00:00' + INTERVAL (range) SECOND)::TIMESTAMP_NS AS ts_ns,"
            + " (TIMESTAMPTZ '2022-06-01 00:00:00+00' + INTERVAL (range * 60) SECOND) AS tstz,"
            + " CASE WHEN range % 6 = 0 THEN NULL ELSE [range, range + 1, NULL][1:range % 4] END AS li,"
            + " ['a' || range, NULL] AS ls,"
            + " {'x': range, 'y': 'y' || range} AS st,"
            + " CASE WHEN range % 3 = 0 THEN NULL ELSE MAP {'k' || range: range, 'z': NULL} END AS mp"
            + " FROM range("
            + ROWS
            + ")";
    String wideDeltas =
        "Arrow C++ refuses DuckDB's DELTA_BINARY_PACKED pages of 32-bit columns"
            + " ('delta bit width larger than integer bit width'): DuckDB packs some miniblocks of"
            + " INT32 deltas in more than 32 bits, where the specification's deltas wrap in the"
            + " type's width; parquet-java's decoder reads them, and its values (and Arrow C++'s"
            + " read of the same rows written as V1 pages) agree with ours";
    duck("duckdb-v1-snappy", select, "COMPRESSION snappy", null, null);
    duck(
        "duckdb-v2-zstd",
        select,
        "COMPRESSION zstd, PARQUET_VERSION V2",
        wideDeltas,
        "duckdb-v1-snappy");
    duck("duckdb-v1-gzip", select, "COMPRESSION gzip, ROW_GROUP_SIZE 100", null, null);
    duck(
        "duckdb-v2-brotli",
        select,
        "COMPRESSION brotli, PARQUET_VERSION V2",
        ARROW_WITHOUT_BROTLI,
        "duckdb-v1-snappy");
    duck(
        "duckdb-v1-brotli", select, "COMPRESSION brotli", ARROW_WITHOUT_BROTLI, "duckdb-v1-snappy");
    duck("duckdb-v1-lz4", select, "COMPRESSION lz4", null, null);
    duck("duckdb-v1-uncompressed", select, "COMPRESSION uncompressed", null, null);
  }

  private void duck(
      String name, String select, String options, String arrowUnreadable, String sameValuesAs)
      throws IOException {
    Entry e = new Entry(name, "parquet", "DuckDB");
    e.arrowUnreadable = arrowUnreadable;
    e.sameValuesAs = sameValuesAs;
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = c.createStatement()) {
      st.execute("SET TimeZone = 'UTC'");
      st.execute("COPY (" + select + ") TO '" + e.path + "' (FORMAT PARQUET, " + options + ")");
    } catch (SQLException ex) {
      throw new IOException("DuckDB could not write " + e.path + ": " + ex.getMessage(), ex);
    }
    e.add();
  }

  // ---------------------------------------------------------------- Arrow C++

  /**
   * Arrow C++'s own Parquet writer (arrow-dataset's file writer, over JNI). Its ORC writer is not
   * reachable from arrow-dataset 18.3.0's Java API ("Must provide file_write_options").
   */
  private void arrowCpp() throws IOException {
    for (String format : new String[] {"parquet"}) {
      Entry e = new Entry("arrow-cpp-written", format, "Arrow C++");
      Path out = dir.resolve("arrow-cpp-" + format);
      // Not closed: the native writer releases the batches it imported only when its side lets
      // go of them, after write returns, so a closing allocator would report them as leaked.
      org.apache.arrow.memory.BufferAllocator allocator =
          new org.apache.arrow.memory.RootAllocator();
      try {
        byte[] stream = arrowStream(allocator);
        try (org.apache.arrow.vector.ipc.ArrowStreamReader reader =
            new org.apache.arrow.vector.ipc.ArrowStreamReader(
                new java.io.ByteArrayInputStream(stream), allocator)) {
          org.apache.arrow.dataset.file.DatasetFileWriter.write(
              allocator,
              reader,
              format.equals("orc")
                  ? org.apache.arrow.dataset.file.FileFormat.ORC
                  : org.apache.arrow.dataset.file.FileFormat.PARQUET,
              out.toUri().toString(),
              new String[0],
              1,
              "part-{i}." + format);
        }
      } catch (RuntimeException ex) {
        throw new IOException("Arrow C++ could not write " + out + ": " + ex, ex);
      }
      java.nio.file.Files.move(out.resolve("part-0." + format), e.path);
      e.add();
    }
  }

  /** The rows Arrow C++ writes, as an Arrow IPC stream. */
  private static byte[] arrowStream(org.apache.arrow.memory.BufferAllocator allocator)
      throws IOException {
    var id = new org.apache.arrow.vector.BigIntVector("id", allocator);
    var s = new org.apache.arrow.vector.VarCharVector("s", allocator);
    var d = new org.apache.arrow.vector.Float8Vector("d", allocator);
    var ts = new org.apache.arrow.vector.TimeStampMicroTZVector("ts", allocator, "UTC");
    var l = org.apache.arrow.vector.complex.ListVector.empty("l", allocator);
    id.allocateNew(ROWS);
    s.allocateNew(ROWS);
    d.allocateNew(ROWS);
    ts.allocateNew(ROWS);
    var lists = l.getWriter();
    for (int i = 0; i < ROWS; i++) {
      id.set(i, i * 1_000_003L - 5);
      if (i % 5 != 0) {
        s.setSafe(i, ("arrow " + i).getBytes(StandardCharsets.UTF_8));
      }
      d.set(i, i / 9.0);
      if (i % 7 != 0) {
        ts.set(i, (i - 100) * 3_600_000_001L);
      }
      lists.setPosition(i);
      if (i % 6 != 0) {
        lists.startList();
        for (int k = 0; k < i % 4; k++) {
          lists.integer().writeInt(i + k);
        }
        lists.endList();
      }
    }
    lists.setValueCount(ROWS);
    for (var v : List.<org.apache.arrow.vector.FieldVector>of(id, s, d, ts)) {
      v.setValueCount(ROWS);
    }
    // the root is made once the list has its element type, so that its schema has it too
    try (var root =
            new org.apache.arrow.vector.VectorSchemaRoot(
                List.<org.apache.arrow.vector.FieldVector>of(id, s, d, ts, l));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        var writer = new org.apache.arrow.vector.ipc.ArrowStreamWriter(root, null, bytes)) {
      root.setRowCount(ROWS);
      writer.start();
      writer.writeBatch();
      writer.end();
      return bytes.toByteArray();
    }
  }

  // ---------------------------------------------------------------- other ORC writers

  /**
   * The files of {@link OrcWriterCorpus}: the C++ writer's and Trino's committed fixtures and
   * orc-core's legacy files. Arrow C++ reads every one as we and orc-core do, with two readings to
   * note. Trino stores a char(n) value without its trailing spaces (Trino's CHAR semantics), where
   * orc-core's writer pads it, and every reader returns what is stored, so its char column is no
   * {@link #CHAR_PADDING} difference. And the C++ writer's negative nanoseconds of times before
   * 1970 ({@code NEGATIVE_NANOS}): Arrow C++ reads the value the writer was given (seconds times
   * 10^9 plus the negative nanoseconds); orc-core hands the nanoseconds over as stored, out of
   * their range, and the reference side of verify and our reader read them as Arrow C++ does.
   */
  private void otherOrcWriters() throws IOException {
    for (OrcWriterFile file : OrcWriterCorpus.write(dir.resolve("orc-writers"))) {
      files.add(
          new CorpusFile(
              file.name().replace(".orc", ""),
              file.path(),
              "orc",
              file.writer(),
              null,
              Map.of(),
              Map.of(),
              null));
    }
  }

  // ---------------------------------------------------------------- orc-core

  static final TypeDescription ORC_TYPES =
      TypeDescription.fromString(
          "struct<"
              + "b:boolean,t:tinyint,sm:smallint,i:int,l:bigint,f:float,d:double,s:string,c:char(5),"
              + "vc:varchar(8),bin:binary,dec:decimal(10,2),dec38:decimal(38,6),dt:date,ts:timestamp,"
              + "tsl:timestamp with local time zone,li:array<int>,m:map<string,int>,"
              + "st:struct<x:int,y:string>>");

  static final String CHAR_PADDING =
      "orc-core pads char(n) values with spaces to n"
          + " characters (Hive's CHAR semantics) and we return them as orc-core does (the README"
          + " says so); Arrow C++'s ORC reader returns them unpadded. Both are defensible; ours is"
          + " the documented mapping, checked against orc-core";

  private void orcCore() throws IOException {
    for (CompressionKind codec :
        new CompressionKind[] {
          CompressionKind.NONE,
          CompressionKind.ZLIB,
          CompressionKind.SNAPPY,
          CompressionKind.LZO,
          CompressionKind.LZ4,
          CompressionKind.ZSTD
        }) {
      Entry e =
          new Entry(
              "orc-types-" + codec.name().toLowerCase(java.util.Locale.ROOT), "orc", "orc-core");
      orc(e, ORC_TYPES, codec, OrcFile.Version.CURRENT, ROWS);
      e.arrowDiffers.put("c", CHAR_PADDING);
      e.add();
    }
    Entry old = new Entry("orc-version-0.11", "orc", "orc-core");
    orc(
        old,
        TypeDescription.fromString(
            "struct<b:boolean,i:int,l:bigint,d:double,s:string,"
                + "dec:decimal(10,2),dt:date,ts:timestamp,li:array<int>,m:map<string,int>,"
                + "st:struct<x:int,y:string>>"),
        CompressionKind.ZLIB,
        OrcFile.Version.V_0_11,
        ROWS);
    old.add();
    Entry union = new Entry("orc-union", "orc", "orc-core");
    orc(
        union,
        TypeDescription.fromString(
            "struct<id:int,u:uniontype<int,string,double>,lu:array<uniontype<bigint,string>>>"),
        CompressionKind.ZLIB,
        OrcFile.Version.CURRENT,
        ROWS);
    union.arrowDiffers.put(
        "u",
        "an Arrow union has no validity of its own (the Arrow columnar"
            + " format), so Arrow C++'s ORC reader turns a null union (its PRESENT stream says null)"
            + " into alternative 0 holding a null; orc-core reads the union itself as null, as the"
            + " file says, and so do we");
    union.arrowDiffers.put("lu", union.arrowDiffers.get("u") + " (here inside a list)");
    union.add();
    for (String root : new String[] {"bigint", "timestamp", "array<string>"}) {
      Entry e = new Entry("orc-root-" + root.replaceAll("[^a-z]", ""), "orc", "orc-core");
      orc(e, TypeDescription.fromString(root), CompressionKind.ZLIB, OrcFile.Version.CURRENT, ROWS);
      e.arrowUnreadable =
          "Arrow C++'s ORC reader reads only files whose root type is a struct"
              + " (the specification allows any type there; orc-core reads them)";
      e.add();
    }
  }

  private void orc(
      Entry e, TypeDescription schema, CompressionKind codec, OrcFile.Version version, int rows)
      throws IOException {
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(e.path.toUri()),
            OrcFile.writerOptions(CONF)
                .setSchema(schema)
                .compress(codec)
                .version(version)
                .rowIndexStride(1000)
                .stripeSize(64L << 10)
                .bufferSize(4096)
                .useUTCTimestamp(true)
                .overwrite(true))) {
      VectorizedRowBatch batch = schema.createRowBatch(rows);
      boolean struct = schema.getCategory() == TypeDescription.Category.STRUCT;
      for (int r = 0; r < rows; r++) {
        if (struct) {
          for (int c = 0; c < schema.getChildren().size(); c++) {
            fill(batch.cols[c], schema.getChildren().get(c), r, r, c);
          }
        } else {
          fill(batch.cols[0], schema, r, r, 0);
        }
      }
      batch.size = rows;
      writer.addRowBatch(batch);
    }
  }

  /** Sets slot {@code slot} of {@code v} to the value of row {@code row}, column {@code c}. */
  private static void fill(ColumnVector v, TypeDescription type, int slot, int row, int c) {
    if ((row + c) % 7 == 3 && type.getCategory() != TypeDescription.Category.LIST) {
      v.noNulls = false;
      v.isNull[slot] = true;
      return;
    }
    switch (type.getCategory()) {
      case BOOLEAN -> ((LongColumnVector) v).vector[slot] = row % 2;
      case BYTE -> ((LongColumnVector) v).vector[slot] = (byte) (row * 3);
      case SHORT -> ((LongColumnVector) v).vector[slot] = (short) (row * 311);
      case INT -> ((LongColumnVector) v).vector[slot] = row * 65_599 - 7;
      case LONG ->
          ((LongColumnVector) v).vector[slot] = row * 4_294_967_311L * (row % 2 == 0 ? 1 : -1);
      case DATE -> ((LongColumnVector) v).vector[slot] = row * 97 - 5000;
      case FLOAT -> ((DoubleColumnVector) v).vector[slot] = (float) (row * 0.75 - 3);
      case DOUBLE -> ((DoubleColumnVector) v).vector[slot] = Math.cbrt(row) * (row % 3 - 1);
      case STRING, VARCHAR, CHAR ->
          ((BytesColumnVector) v)
              .setVal(
                  slot, ("v" + row + (row % 3 == 0 ? "é" : "")).getBytes(StandardCharsets.UTF_8));
      case BINARY ->
          ((BytesColumnVector) v).setVal(slot, new byte[] {(byte) row, 0, (byte) (-row)});
      case DECIMAL ->
          ((DecimalColumnVector) v)
              .set(slot, HiveDecimal.create(BigDecimal.valueOf(row * 12_345L - 99_999, 2)));
      case TIMESTAMP, TIMESTAMP_INSTANT -> {
        // within the years nanoseconds since the epoch can hold (1677 to 2262)
        Timestamp t = new Timestamp((row - 120) * 86_400_123L * 60);
        t.setNanos(row * 1_001 % 1_000_000_000);
        ((TimestampColumnVector) v).set(slot, t);
      }
      case LIST -> {
        ListColumnVector list = (ListColumnVector) v;
        int n = row % 4;
        int offset = TestFiles.appendChildren(list, slot, n);
        for (int k = 0; k < n; k++) {
          fill(list.child, type.getChildren().get(0), offset + k, row * 4 + k, c + 1);
        }
      }
      case MAP -> {
        MapColumnVector map = (MapColumnVector) v;
        int n = row % 3;
        int offset = TestFiles.appendChildren(map, slot, n);
        for (int k = 0; k < n; k++) {
          ((BytesColumnVector) map.keys)
              .setVal(offset + k, ("k" + k).getBytes(StandardCharsets.UTF_8));
          fill(map.values, type.getChildren().get(1), offset + k, row + k, c + 2);
        }
      }
      case STRUCT -> {
        StructColumnVector s = (StructColumnVector) v;
        for (int f = 0; f < s.fields.length; f++) {
          fill(s.fields[f], type.getChildren().get(f), slot, row + f, c + f + 1);
        }
      }
      case UNION -> {
        UnionColumnVector u = (UnionColumnVector) v;
        int tag = row % type.getChildren().size();
        u.tags[slot] = tag;
        fill(u.fields[tag], type.getChildren().get(tag), slot, row, 0);
      }
      default -> throw new IllegalStateException("no values for " + type);
    }
  }
}
