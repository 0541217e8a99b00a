package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.List;
import java.util.Random;
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
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Test files with every type the formats read, written by parquet-hadoop and orc-core: flat and
 * nested, with nulls at every level, the top values of unsigned integers, FLOAT16 specials,
 * decimals of every layout, times and timestamps of every unit, and ORC unions.
 */
final class ArrowTestFiles {

  static final MessageType PARQUET_ALL_TYPES =
      MessageTypeParser.parseMessageType(
          "message all {\n"
              + "  required int64 id;\n"
              + "  optional boolean b;\n"
              + "  optional int32 i8 (INTEGER(8,true));\n"
              + "  optional int32 i16 (INTEGER(16,true));\n"
              + "  optional int32 i32;\n"
              + "  optional int64 i64;\n"
              + "  optional int32 u8 (INTEGER(8,false));\n"
              + "  optional int32 u16 (INTEGER(16,false));\n"
              + "  optional int32 u32 (INTEGER(32,false));\n"
              + "  optional int64 u64 (INTEGER(64,false));\n"
              + "  optional float f32;\n"
              + "  optional double f64;\n"
              + "  optional fixed_len_byte_array(2) f16 (FLOAT16);\n"
              + "  optional int32 d9 (DECIMAL(9,2));\n"
              + "  optional int64 d18 (DECIMAL(18,4));\n"
              + "  optional fixed_len_byte_array(16) d38 (DECIMAL(38,10));\n"
              + "  optional binary d60 (DECIMAL(60,5));\n"
              + "  optional binary s (STRING);\n"
              + "  optional binary bin;\n"
              + "  optional fixed_len_byte_array(16) uuid (UUID);\n"
              + "  optional fixed_len_byte_array(5) fixed5;\n"
              + "  optional int32 dt (DATE);\n"
              + "  optional int32 tms (TIME(MILLIS,true));\n"
              + "  optional int64 tus (TIME(MICROS,false));\n"
              + "  optional int64 tns (TIME(NANOS,true));\n"
              + "  optional int64 tsms (TIMESTAMP(MILLIS,true));\n"
              + "  optional int64 tsus (TIMESTAMP(MICROS,false));\n"
              + "  optional int64 tsns (TIMESTAMP(NANOS,true));\n"
              + "  optional int96 ts96;\n"
              + "  optional group lst (LIST) { repeated group list { optional int32 element; } }\n"
              + "  optional group lstr (LIST) { repeated group list { optional binary element (STRING); } }\n"
              + "  optional group m (MAP) { repeated group key_value {\n"
              + "    required binary key (STRING); optional int64 value; } }\n"
              + "  optional group st { optional int32 x; optional binary y (STRING);\n"
              + "    optional group z { optional int32 q (INTEGER(16,false)); } }\n"
              + "  optional group lol (LIST) { repeated group list { optional group element (LIST) {\n"
              + "    repeated group list { optional int64 element; } } } }\n"
              + "  optional group lu (LIST) { repeated group list {\n"
              + "    optional int64 element (INTEGER(64,false)); } }\n"
              + "}");

  /** The Parquet columns DuckDB reads into the same types it imports from Arrow. */
  static final List<String> DUCKDB_COLUMNS =
      List.of(
          "id", "b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "d9",
          "d18", "d38", "s", "bin", "fixed5", "dt", "tus", "tsms", "tsus", "tsns", "lst", "lstr",
          "m", "st", "lol", "lu");

  static final TypeDescription ORC_ALL_TYPES =
      TypeDescription.fromString(
          "struct<"
              + "id:bigint,b:boolean,i8:tinyint,i16:smallint,i32:int,i64:bigint,f32:float,f64:double,"
              + "s:string,c:char(5),vc:varchar(10),bin:binary,d10:decimal(10,2),d30:decimal(30,5),"
              + "dt:date,ts:timestamp,tsz:timestamp with local time zone,"
              + "lst:array<int>,m:map<string,double>,st:struct<x:int,y:string,z:struct<q:bigint>>,"
              + "u:uniontype<int,string,array<bigint>>,lol:array<array<string>>,allnull:int>");

  private ArrowTestFiles() {}

  // ---- Parquet

  /**
   * A file written by DuckDB with {@code rows} rows in row groups of 2048: strings and binaries
   * that DuckDB writes dictionary-encoded ({@code category} with nulls, {@code name} with a few
   * hundred values, the blob {@code tag}), one it writes plain ({@code uniq}, every value
   * distinct), and {@code late}, null in the first 4000 rows (a plain first chunk), then
   * dictionary-encoded. DuckDB leaves a short last row group's {@code name} plain too.
   */
  static Path writeDuckDbDictionaries(Path file, int rows) throws java.sql.SQLException {
    try (java.sql.Connection connection = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement statement = connection.createStatement()) {
      statement.execute(
          "COPY (SELECT i AS id,"
              + " CASE WHEN i % 9 = 0 THEN NULL ELSE 'category-' || (i % 7) END AS category,"
              + " 'name-' || (i % 300) || repeat('x', (i % 5)::INTEGER) AS name,"
              + " CASE WHEN i % 4 = 0 THEN NULL"
              + "   ELSE ('\\x' || lpad(printf('%x', i % 40), 4, '0'))::BLOB END AS tag,"
              + " 'unique-' || i AS uniq,"
              + " CASE WHEN i < 4000 THEN NULL ELSE 'late-' || (i % 3) END AS late"
              + " FROM range(0, "
              + rows
              + ") t(i)) TO '"
              + file
              + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
    }
    return file;
  }

  static Path writeParquet(Path file, int rows, long seed) throws IOException {
    SimpleGroupFactory groups = new SimpleGroupFactory(PARQUET_ALL_TYPES);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(PARQUET_ALL_TYPES)
            .withCompressionCodec(CompressionCodecName.SNAPPY)
            .withRowGroupSize(256L << 10)
            .withPageSize(8 << 10)
            .withPageRowCountLimit(300)
            .build()) {
      for (int row = 0; row < rows; row++) {
        Random r = new Random(seed * 1_000_003L + row);
        Group g = groups.newGroup();
        g.add("id", (long) row);
        if (some(r)) {
          g.add("b", r.nextBoolean());
        }
        if (some(r)) {
          g.add("i8", edge(r, Byte.MIN_VALUE, Byte.MAX_VALUE));
        }
        if (some(r)) {
          g.add("i16", edge(r, Short.MIN_VALUE, Short.MAX_VALUE));
        }
        if (some(r)) {
          g.add("i32", r.nextInt());
        }
        if (some(r)) {
          g.add("i64", r.nextLong());
        }
        if (some(r)) {
          g.add("u8", r.nextInt(4) == 0 ? 255 : r.nextInt(256));
        }
        if (some(r)) {
          g.add("u16", r.nextInt(4) == 0 ? 65535 : r.nextInt(65536));
        }
        if (some(r)) {
          g.add("u32", r.nextInt(4) == 0 ? -1 : r.nextInt());
        }
        if (some(r)) {
          // -1L is 2^64 - 1; negative longs are values at or above 2^63.
          g.add("u64", r.nextInt(4) == 0 ? -1L : r.nextLong());
        }
        if (some(r)) {
          g.add("f32", r.nextInt(10) == 0 ? Float.NaN : r.nextFloat() * 1e6f - 5e5f);
        }
        if (some(r)) {
          g.add("f64", r.nextInt(10) == 0 ? Double.NEGATIVE_INFINITY : r.nextGaussian() * 1e9);
        }
        if (some(r)) {
          g.add("f16", Binary.fromConstantByteArray(float16(r)));
        }
        if (some(r)) {
          g.add("d9", r.nextInt(1_000_000_000) - 500_000_000);
        }
        if (some(r)) {
          g.add("d18", r.nextLong() % 1_000_000_000_000_000_000L);
        }
        if (some(r)) {
          g.add(
              "d38",
              Binary.fromConstantByteArray(
                  fixedTwosComplement(
                      new BigInteger(120, r).subtract(BigInteger.ONE.shiftLeft(119)), 16)));
        }
        if (some(r)) {
          g.add(
              "d60",
              Binary.fromConstantByteArray(
                  new BigInteger(190, r).subtract(BigInteger.ONE.shiftLeft(189)).toByteArray()));
        }
        if (some(r)) {
          g.add("s", text(r));
        }
        if (some(r)) {
          g.add("bin", Binary.fromConstantByteArray(bytes(r, r.nextInt(20))));
        }
        if (some(r)) {
          g.add("uuid", Binary.fromConstantByteArray(bytes(r, 16)));
        }
        if (some(r)) {
          g.add("fixed5", Binary.fromConstantByteArray(bytes(r, 5)));
        }
        if (some(r)) {
          g.add("dt", r.nextInt(60_000) - 20_000);
        }
        if (some(r)) {
          g.add("tms", r.nextInt(86_400_000));
        }
        if (some(r)) {
          g.add("tus", (long) (r.nextDouble() * 86_400_000_000L));
        }
        if (some(r)) {
          g.add("tns", (long) (r.nextDouble() * 86_400_000_000_000L));
        }
        if (some(r)) {
          g.add("tsms", r.nextLong() % 4_000_000_000_000L);
        }
        if (some(r)) {
          g.add("tsus", r.nextLong() % 4_000_000_000_000_000L);
        }
        if (some(r)) {
          g.add("tsns", r.nextLong() % 4_000_000_000_000_000_000L);
        }
        if (some(r)) {
          g.add("ts96", Binary.fromConstantByteArray(int96(r)));
        }
        if (some(r)) {
          Group lst = g.addGroup("lst");
          for (int i = r.nextInt(5); i > 0; i--) {
            Group e = lst.addGroup("list");
            if (some(r)) {
              e.add("element", r.nextInt(1000));
            }
          }
        }
        if (some(r)) {
          Group lst = g.addGroup("lstr");
          for (int i = r.nextInt(4); i > 0; i--) {
            Group e = lst.addGroup("list");
            if (some(r)) {
              e.add("element", text(r));
            }
          }
        }
        if (some(r)) {
          Group m = g.addGroup("m");
          int base = r.nextInt(50) * 4;
          for (int i = r.nextInt(4); i > 0; i--) {
            Group kv = m.addGroup("key_value");
            // Distinct keys: DuckDB refuses maps with duplicate keys.
            kv.add("key", "k" + (base + i));
            if (some(r)) {
              kv.add("value", r.nextLong());
            }
          }
        }
        if (some(r)) {
          Group st = g.addGroup("st");
          if (some(r)) {
            st.add("x", r.nextInt());
          }
          if (some(r)) {
            st.add("y", text(r));
          }
          if (some(r)) {
            Group z = st.addGroup("z");
            if (some(r)) {
              z.add("q", r.nextInt(4) == 0 ? 65535 : r.nextInt(65536));
            }
          }
        }
        if (some(r)) {
          Group lol = g.addGroup("lol");
          for (int i = r.nextInt(3); i > 0; i--) {
            Group outer = lol.addGroup("list");
            if (some(r)) {
              Group inner = outer.addGroup("element");
              for (int j = r.nextInt(3); j > 0; j--) {
                Group e = inner.addGroup("list");
                if (some(r)) {
                  e.add("element", r.nextLong());
                }
              }
            }
          }
        }
        if (some(r)) {
          Group lu = g.addGroup("lu");
          for (int i = r.nextInt(3); i > 0; i--) {
            Group e = lu.addGroup("list");
            if (some(r)) {
              e.add("element", r.nextBoolean() ? -1L : r.nextLong());
            }
          }
        }
        writer.write(g);
      }
    }
    return file;
  }

  /** Mostly values, about one null in seven. */
  private static boolean some(Random r) {
    return r.nextInt(7) != 0;
  }

  private static int edge(Random r, int min, int max) {
    int pick = r.nextInt(8);
    return pick == 0 ? min : pick == 1 ? max : min + r.nextInt(max - min + 1);
  }

  private static String text(Random r) {
    int length = r.nextInt(12);
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append(i % 5 == 4 ? 'é' : (char) ('a' + r.nextInt(26)));
    }
    return sb.toString();
  }

  private static byte[] bytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  /** Little-endian half floats: specials, subnormals and random finite values. */
  private static byte[] float16(Random r) {
    short[] specials = {
      0x0000, (short) 0x8000, 0x7c00, (short) 0xfc00, 0x0001, 0x03ff, 0x7bff, (short) 0xfbff, 0x3c00
    };
    short bits =
        r.nextInt(4) == 0
            ? specials[r.nextInt(specials.length)]
            : (short) (r.nextInt(0x7c00) | (r.nextBoolean() ? 0x8000 : 0));
    return new byte[] {(byte) bits, (byte) (bits >> 8)};
  }

  private static byte[] fixedTwosComplement(BigInteger value, int width) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[width];
    byte fill = value.signum() < 0 ? (byte) -1 : 0;
    int pad = width - raw.length;
    for (int i = 0; i < width; i++) {
      out[i] = i < pad ? fill : raw[i - pad];
    }
    return out;
  }

  private static byte[] int96(Random r) {
    long nanosOfDay = (long) (r.nextDouble() * 86_400_000_000_000L);
    int julianDay = 2_440_588 + r.nextInt(40_000) - 10_000;
    return ByteBuffer.allocate(12)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(nanosOfDay)
        .putInt(julianDay)
        .array();
  }

  // ---- ORC

  static Path writeOrc(Path file, int rows, long seed) throws IOException {
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(new Configuration())
            .setSchema(ORC_ALL_TYPES)
            .compress(CompressionKind.ZLIB)
            .rowIndexStride(1000)
            .bufferSize(4096)
            .overwrite(true);
    try (Writer writer =
        OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toUri()), options)) {
      VectorizedRowBatch batch = ORC_ALL_TYPES.createRowBatch(256);
      int row = 0;
      while (row < rows) {
        batch.reset();
        int count = Math.min(batch.getMaxSize(), rows - row);
        List<TypeDescription> children = ORC_ALL_TYPES.getChildren();
        List<String> names = ORC_ALL_TYPES.getFieldNames();
        for (int c = 0; c < children.size(); c++) {
          for (int i = 0; i < count; i++) {
            Random r = new Random(seed * 1_000_003L + (row + i) * 131L + c);
            if (names.get(c).equals("id")) {
              ((LongColumnVector) batch.cols[c]).vector[i] = row + i;
            } else if (names.get(c).equals("allnull")) {
              setNull(batch.cols[c], i);
            } else {
              fillOrc(batch.cols[c], children.get(c), i, r);
            }
          }
        }
        batch.size = count;
        writer.addRowBatch(batch);
        row += count;
      }
    }
    return file;
  }

  private static void setNull(ColumnVector v, int slot) {
    v.noNulls = false;
    v.isNull[slot] = true;
  }

  private static void fillOrc(ColumnVector v, TypeDescription type, int slot, Random r) {
    if (!some(r)) {
      setNull(v, slot);
      return;
    }
    v.isNull[slot] = false;
    switch (type.getCategory()) {
      case BOOLEAN -> ((LongColumnVector) v).vector[slot] = r.nextBoolean() ? 1 : 0;
      case BYTE -> ((LongColumnVector) v).vector[slot] = (byte) r.nextInt();
      case SHORT -> ((LongColumnVector) v).vector[slot] = (short) r.nextInt();
      case INT -> ((LongColumnVector) v).vector[slot] = r.nextInt();
      case LONG -> ((LongColumnVector) v).vector[slot] = r.nextLong();
      case DATE -> ((LongColumnVector) v).vector[slot] = r.nextInt(60_000) - 20_000;
      case FLOAT -> ((DoubleColumnVector) v).vector[slot] = (float) (r.nextGaussian() * 1e4);
      case DOUBLE -> ((DoubleColumnVector) v).vector[slot] = r.nextGaussian() * 1e12;
      case STRING, VARCHAR, CHAR -> {
        byte[] b = text(r).getBytes(StandardCharsets.UTF_8);
        int max =
            type.getCategory() == TypeDescription.Category.STRING
                ? b.length
                : Math.min(b.length, type.getMaxLength());
        byte[] cut = java.util.Arrays.copyOf(b, max);
        // Cut on a character boundary: drop a trailing partial UTF-8 sequence.
        String s = new String(cut, StandardCharsets.UTF_8).replace("\uFFFD", "");
        ((BytesColumnVector) v).setVal(slot, s.getBytes(StandardCharsets.UTF_8));
      }
      case BINARY -> ((BytesColumnVector) v).setVal(slot, bytes(r, r.nextInt(16)));
      case DECIMAL -> {
        BigInteger unscaled = new BigInteger(type.getPrecision() * 3, r);
        if (r.nextBoolean()) {
          unscaled = unscaled.negate();
        }
        BigDecimal value = new BigDecimal(unscaled, type.getScale());
        if (value.precision() > type.getPrecision()) {
          value = value.movePointLeft(value.precision() - type.getPrecision());
        }
        ((DecimalColumnVector) v).set(slot, HiveDecimal.create(value));
      }
      case TIMESTAMP, TIMESTAMP_INSTANT -> {
        Timestamp ts = new Timestamp((r.nextLong() % 4_000_000_000_000L));
        ts.setNanos(r.nextInt(1_000_000_000));
        ((TimestampColumnVector) v).set(slot, ts);
      }
      case LIST -> {
        ListColumnVector list = (ListColumnVector) v;
        int n = r.nextInt(4);
        int at = list.childCount;
        list.offsets[slot] = at;
        list.lengths[slot] = n;
        list.childCount += n;
        list.child.ensureSize(list.childCount, true);
        for (int i = 0; i < n; i++) {
          fillOrc(list.child, type.getChildren().get(0), at + i, r);
        }
      }
      case MAP -> {
        MapColumnVector map = (MapColumnVector) v;
        int n = r.nextInt(4);
        int at = map.childCount;
        map.offsets[slot] = at;
        map.lengths[slot] = n;
        map.childCount += n;
        map.keys.ensureSize(map.childCount, true);
        map.values.ensureSize(map.childCount, true);
        for (int i = 0; i < n; i++) {
          ((BytesColumnVector) map.keys)
              .setVal(at + i, ("k" + r.nextInt(40)).getBytes(StandardCharsets.UTF_8));
          map.keys.isNull[at + i] = false;
          fillOrc(map.values, type.getChildren().get(1), at + i, r);
        }
      }
      case STRUCT -> {
        StructColumnVector struct = (StructColumnVector) v;
        for (int f = 0; f < struct.fields.length; f++) {
          fillOrc(struct.fields[f], type.getChildren().get(f), slot, r);
        }
      }
      case UNION -> {
        UnionColumnVector union = (UnionColumnVector) v;
        int tag = r.nextInt(type.getChildren().size());
        union.tags[slot] = tag;
        fillOrc(union.fields[tag], type.getChildren().get(tag), slot, r);
      }
      default -> throw new IllegalArgumentException("no test values for " + type);
    }
  }

  /**
   * The byte span {@code [start, end)} of row group {@code numerator / denominator} of the way into
   * {@code file} (it has more than two), for a fault that fails the reads touching it.
   */
  static long[] rowGroupSpan(Path file, int numerator, int denominator) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      List<BlockMetaData> groups = reader.getFooter().getBlocks();
      assertThat(groups).as("row groups of the test file").hasSizeGreaterThan(2);
      BlockMetaData group = groups.get(groups.size() * numerator / denominator);
      return new long[] {
        group.getStartingPos(), group.getStartingPos() + group.getCompressedSize()
      };
    }
  }
}
