package dev.prefetch.it;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MultiValuedColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
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
 * Small valid Parquet and ORC files, written by parquet-hadoop and orc-core with a fixed seed:
 * every flat type, nested lists, structs and maps, about 10% nulls, several row groups or stripes
 * with several pages or row-index strides each, so that reads are split into many ranges.
 */
public final class TestFiles {

  /** Rows in every file: enough for several row groups / stripes, small enough to stay fast. */
  public static final int DEFAULT_ROWS = 6_000;

  private static final MessageType FLAT =
      MessageTypeParser.parseMessageType(
          """
      message flat {
        required int64 id;
        optional boolean b;
        optional int32 i8 (INTEGER(8,true));
        optional int32 i16 (INTEGER(16,true));
        optional int32 i32;
        optional int64 i64;
        optional float f32;
        optional double f64;
        optional int32 dec9 (DECIMAL(9,2));
        optional int64 dec18 (DECIMAL(18,4));
        optional fixed_len_byte_array(16) dec38 (DECIMAL(38,6));
        optional int32 d (DATE);
        optional int64 t (TIME(MICROS,true));
        optional int64 ts_ms (TIMESTAMP(MILLIS,true));
        optional int64 ts_us (TIMESTAMP(MICROS,false));
        optional binary s (STRING);
        optional binary bin;
        optional fixed_len_byte_array(8) fixed;
      }
      """);

  private static final MessageType NESTED =
      MessageTypeParser.parseMessageType(
          """
      message nested {
        required int64 id;
        optional group ints (LIST) { repeated group list { optional int32 element; } }
        optional group st { optional int32 a; optional binary b (STRING); }
        optional group m (MAP) {
          repeated group key_value { required binary key (STRING); optional int64 value; }
        }
        optional binary s (STRING);
      }
      """);

  /** How a Parquet test file is written. */
  public enum ParquetVariant {
    FLAT_SNAPPY_DICTIONARY_V1(false, CompressionCodecName.SNAPPY, true, WriterVersion.PARQUET_1_0),
    FLAT_GZIP_PLAIN_V2(false, CompressionCodecName.GZIP, false, WriterVersion.PARQUET_2_0),
    FLAT_UNCOMPRESSED_DICTIONARY_V2(
        false, CompressionCodecName.UNCOMPRESSED, true, WriterVersion.PARQUET_2_0),
    NESTED_SNAPPY_DICTIONARY_V1(true, CompressionCodecName.SNAPPY, true, WriterVersion.PARQUET_1_0),
    NESTED_UNCOMPRESSED_PLAIN_V2(
        true, CompressionCodecName.UNCOMPRESSED, false, WriterVersion.PARQUET_2_0);

    final boolean nested;
    final CompressionCodecName codec;
    final boolean dictionary;
    final WriterVersion version;

    ParquetVariant(
        boolean nested, CompressionCodecName codec, boolean dictionary, WriterVersion version) {
      this.nested = nested;
      this.codec = codec;
      this.dictionary = dictionary;
      this.version = version;
    }
  }

  /** How an ORC test file is written. */
  public enum OrcVariant {
    FLAT_ZLIB(false, CompressionKind.ZLIB),
    FLAT_SNAPPY(false, CompressionKind.SNAPPY),
    FLAT_NONE(false, CompressionKind.NONE),
    NESTED_ZLIB(true, CompressionKind.ZLIB),
    NESTED_NONE(true, CompressionKind.NONE);

    final boolean nested;
    final CompressionKind compression;

    OrcVariant(boolean nested, CompressionKind compression) {
      this.nested = nested;
      this.compression = compression;
    }
  }

  private TestFiles() {}

  /** Writes a Parquet file of {@code rows} rows; page checksums are written when asked. */
  public static Path parquet(Path file, ParquetVariant variant, int rows, boolean checksums)
      throws IOException {
    Files.deleteIfExists(file);
    MessageType schema = variant.nested ? NESTED : FLAT;
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    Random random = new Random(42);
    Configuration conf = new Configuration();
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()))
            .withConf(conf)
            .withType(schema)
            .withCompressionCodec(variant.codec)
            .withDictionaryEncoding(variant.dictionary)
            .withWriterVersion(variant.version)
            .withRowGroupSize(48L << 10)
            .withPageSize(4 << 10)
            .withDictionaryPageSize(16 << 10)
            .withPageRowCountLimit(400)
            .withPageWriteChecksumEnabled(checksums)
            .build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        if (variant.nested) {
          fillNested(g, i, random);
        } else {
          fillFlat(g, i, random);
        }
        writer.write(g);
      }
    }
    deleteChecksumFile(file);
    return file;
  }

  private static void fillFlat(Group g, int i, Random r) {
    g.add("id", (long) i);
    if (!isNull(r)) {
      g.add("b", r.nextBoolean());
    }
    if (!isNull(r)) {
      g.add("i8", r.nextInt(256) - 128);
    }
    if (!isNull(r)) {
      g.add("i16", r.nextInt(65536) - 32768);
    }
    if (!isNull(r)) {
      g.add("i32", r.nextInt(1000)); // few distinct values: dictionary pages stay
    }
    if (!isNull(r)) {
      g.add("i64", r.nextLong());
    }
    if (!isNull(r)) {
      g.add("f32", r.nextFloat() * 1000);
    }
    if (!isNull(r)) {
      g.add("f64", r.nextGaussian());
    }
    if (!isNull(r)) {
      g.add("dec9", r.nextInt(2_000_000_000) - 1_000_000_000);
    }
    if (!isNull(r)) {
      g.add("dec18", r.nextLong() % 1_000_000_000_000_000_000L);
    }
    if (!isNull(r)) {
      g.add(
          "dec38",
          Binary.fromConstantByteArray(
              fixed16(new BigInteger(120, r).subtract(BigInteger.ONE.shiftLeft(119)))));
    }
    if (!isNull(r)) {
      g.add("d", 18_000 + r.nextInt(2000));
    }
    if (!isNull(r)) {
      g.add("t", (long) r.nextInt(86_400) * 1_000_000L + r.nextInt(1_000_000));
    }
    if (!isNull(r)) {
      g.add("ts_ms", 1_600_000_000_000L + r.nextInt(1_000_000_000));
    }
    if (!isNull(r)) {
      g.add("ts_us", 1_600_000_000_000_000L + (r.nextLong() & 0xFFFFFFFFFFL));
    }
    if (!isNull(r)) {
      g.add("s", "value-" + r.nextInt(300) + (r.nextInt(10) == 0 ? "-long-suffix-" + i : ""));
    }
    if (!isNull(r)) {
      byte[] bytes = new byte[r.nextInt(20)];
      r.nextBytes(bytes);
      g.add("bin", Binary.fromConstantByteArray(bytes));
    }
    if (!isNull(r)) {
      byte[] bytes = new byte[8];
      r.nextBytes(bytes);
      g.add("fixed", Binary.fromConstantByteArray(bytes));
    }
  }

  private static void fillNested(Group g, int i, Random r) {
    g.add("id", (long) i);
    if (!isNull(r)) {
      Group list = g.addGroup("ints");
      int n = r.nextInt(5);
      for (int k = 0; k < n; k++) {
        Group element = list.addGroup("list");
        if (r.nextInt(8) != 0) {
          element.add("element", r.nextInt(100_000));
        }
      }
    }
    if (!isNull(r)) {
      Group st = g.addGroup("st");
      if (!isNull(r)) {
        st.add("a", r.nextInt());
      }
      if (!isNull(r)) {
        st.add("b", "b" + r.nextInt(50));
      }
    }
    if (!isNull(r)) {
      Group map = g.addGroup("m");
      int n = r.nextInt(4);
      for (int k = 0; k < n; k++) {
        Group kv = map.addGroup("key_value");
        kv.add("key", "k" + k);
        if (r.nextInt(6) != 0) {
          kv.add("value", r.nextLong());
        }
      }
    }
    if (!isNull(r)) {
      g.add("s", "row-" + i);
    }
  }

  private static byte[] fixed16(BigInteger value) {
    byte[] minimal = value.toByteArray();
    byte[] out = new byte[16];
    byte pad = (byte) (value.signum() < 0 ? 0xFF : 0);
    int offset = 16 - minimal.length;
    for (int k = 0; k < offset; k++) {
      out[k] = pad;
    }
    System.arraycopy(minimal, 0, out, offset, minimal.length);
    return out;
  }

  /** Writes an ORC file of {@code rows} rows with small stripes and a row index every 1000 rows. */
  public static Path orc(Path file, OrcVariant variant, int rows) throws IOException {
    Files.deleteIfExists(file);
    TypeDescription schema =
        TypeDescription.fromString(
            variant.nested
                ? "struct<id:bigint,ints:array<int>,st:struct<a:int,b:string>,m:map<string,bigint>,"
                    + "s:string>"
                : "struct<id:bigint,b:boolean,i8:tinyint,i16:smallint,i32:int,i64:bigint,f32:float,"
                    + "f64:double,dec9:decimal(9,2),dec38:decimal(38,6),d:date,ts:timestamp,s:string,"
                    + "bin:binary,c:char(5),vc:varchar(10)>");
    Configuration conf = new Configuration();
    conf.setInt("orc.rows.between.memory.checks", 100); // so that the small stripe size holds
    Random random = new Random(42);
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()),
            OrcFile.writerOptions(conf)
                .setSchema(schema)
                .compress(variant.compression)
                .stripeSize(32L << 10)
                .bufferSize(4 << 10)
                .rowIndexStride(1000)
                .blockPadding(false))) {
      VectorizedRowBatch batch = schema.createRowBatch(1000);
      for (int i = 0; i < rows; i++) {
        int row = batch.size++;
        if (variant.nested) {
          fillNested(batch, row, i, random);
        } else {
          fillFlat(batch, row, i, random);
        }
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      if (batch.size > 0) {
        writer.addRowBatch(batch);
      }
    }
    deleteChecksumFile(file);
    return file;
  }

  private static void fillFlat(VectorizedRowBatch batch, int row, int i, Random r) {
    ((LongColumnVector) batch.cols[0]).vector[row] = i;
    setLong(batch, 1, row, r, r.nextBoolean() ? 1 : 0);
    setLong(batch, 2, row, r, r.nextInt(256) - 128);
    setLong(batch, 3, row, r, r.nextInt(65536) - 32768);
    setLong(batch, 4, row, r, r.nextInt(1000));
    setLong(batch, 5, row, r, r.nextLong());
    setDouble(batch, 6, row, r, r.nextFloat() * 1000);
    setDouble(batch, 7, row, r, r.nextGaussian());
    DecimalColumnVector dec9 = (DecimalColumnVector) batch.cols[8];
    if (!nullAt(dec9, row, r)) {
      dec9.set(
          row,
          HiveDecimal.create(BigDecimal.valueOf(r.nextInt(2_000_000_000) - 1_000_000_000L, 2)));
    }
    DecimalColumnVector dec38 = (DecimalColumnVector) batch.cols[9];
    if (!nullAt(dec38, row, r)) {
      dec38.set(row, HiveDecimal.create(new BigDecimal(new BigInteger(100, r), 6)));
    }
    setLong(batch, 10, row, r, 18_000 + r.nextInt(2000));
    TimestampColumnVector ts = (TimestampColumnVector) batch.cols[11];
    if (!nullAt(ts, row, r)) {
      Timestamp t = new Timestamp(1_600_000_000_000L + r.nextInt(1_000_000_000));
      t.setNanos(r.nextInt(1_000_000) * 1000);
      ts.set(row, t);
    }
    setBytes(batch, 12, row, r, ("value-" + r.nextInt(300)).getBytes(StandardCharsets.UTF_8));
    byte[] bin = new byte[r.nextInt(20)];
    r.nextBytes(bin);
    setBytes(batch, 13, row, r, bin);
    setBytes(batch, 14, row, r, "c" + r.nextInt(1000));
    setBytes(batch, 15, row, r, ("vc" + r.nextInt(100_000)).getBytes(StandardCharsets.UTF_8));
  }

  private static void fillNested(VectorizedRowBatch batch, int row, int i, Random r) {
    ((LongColumnVector) batch.cols[0]).vector[row] = i;
    ListColumnVector ints = (ListColumnVector) batch.cols[1];
    if (!nullAt(ints, row, r)) {
      int n = r.nextInt(5);
      int offset = appendChildren(ints, row, n);
      LongColumnVector child = (LongColumnVector) ints.child;
      for (int k = 0; k < n; k++) {
        if (r.nextInt(8) == 0) {
          child.noNulls = false;
          child.isNull[offset + k] = true;
        } else {
          child.isNull[offset + k] = false;
          child.vector[offset + k] = r.nextInt(100_000);
        }
      }
    }
    StructColumnVector st = (StructColumnVector) batch.cols[2];
    if (!nullAt(st, row, r)) {
      LongColumnVector a = (LongColumnVector) st.fields[0];
      if (!nullAt(a, row, r)) {
        a.vector[row] = r.nextInt();
      }
      BytesColumnVector b = (BytesColumnVector) st.fields[1];
      if (!nullAt(b, row, r)) {
        b.setVal(row, ("b" + r.nextInt(50)).getBytes(StandardCharsets.UTF_8));
      }
    } else {
      st.fields[0].isNull[row] = true;
      st.fields[0].noNulls = false;
      st.fields[1].isNull[row] = true;
      st.fields[1].noNulls = false;
    }
    MapColumnVector m = (MapColumnVector) batch.cols[3];
    if (!nullAt(m, row, r)) {
      int n = r.nextInt(4);
      int offset = appendChildren(m, row, n);
      BytesColumnVector keys = (BytesColumnVector) m.keys;
      LongColumnVector values = (LongColumnVector) m.values;
      for (int k = 0; k < n; k++) {
        keys.setVal(offset + k, ("k" + k).getBytes(StandardCharsets.UTF_8));
        if (r.nextInt(6) == 0) {
          values.noNulls = false;
          values.isNull[offset + k] = true;
        } else {
          values.isNull[offset + k] = false;
          values.vector[offset + k] = r.nextLong();
        }
      }
    }
    setBytes(batch, 4, row, r, ("row-" + i).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Gives row {@code row} of an ORC list or map the next {@code count} child slots, growing the
   * child vectors to hold them, and returns the first of them.
   */
  public static int appendChildren(MultiValuedColumnVector vector, int row, int count) {
    int offset = vector.childCount;
    vector.offsets[row] = offset;
    vector.lengths[row] = count;
    vector.childCount += count;
    if (vector instanceof ListColumnVector list) {
      list.child.ensureSize(vector.childCount, true);
    } else if (vector instanceof MapColumnVector map) {
      map.keys.ensureSize(vector.childCount, true);
      map.values.ensureSize(vector.childCount, true);
    }
    return offset;
  }

  private static boolean isNull(Random r) {
    return r.nextInt(10) == 0;
  }

  /** Marks a null with probability 1/10 and returns whether it did. */
  private static boolean nullAt(
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector vector, int row, Random r) {
    if (isNull(r)) {
      vector.noNulls = false;
      vector.isNull[row] = true;
      return true;
    }
    vector.isNull[row] = false;
    return false;
  }

  private static void setLong(VectorizedRowBatch batch, int column, int row, Random r, long value) {
    LongColumnVector vector = (LongColumnVector) batch.cols[column];
    if (!nullAt(vector, row, r)) {
      vector.vector[row] = value;
    }
  }

  private static void setDouble(
      VectorizedRowBatch batch, int column, int row, Random r, double value) {
    DoubleColumnVector vector = (DoubleColumnVector) batch.cols[column];
    if (!nullAt(vector, row, r)) {
      vector.vector[row] = value;
    }
  }

  private static void setBytes(
      VectorizedRowBatch batch, int column, int row, Random r, byte[] value) {
    BytesColumnVector vector = (BytesColumnVector) batch.cols[column];
    if (!nullAt(vector, row, r)) {
      vector.setVal(row, value);
    }
  }

  private static void setBytes(
      VectorizedRowBatch batch, int column, int row, Random r, String value) {
    setBytes(batch, column, row, r, value.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The local filesystem's checksum file would make a later byte-level corruption an error of the
   * filesystem rather than of the format.
   */
  private static void deleteChecksumFile(Path file) throws IOException {
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }
}
