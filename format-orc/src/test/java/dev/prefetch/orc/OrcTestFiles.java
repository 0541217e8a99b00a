package dev.prefetch.orc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
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
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/** Writes deterministic ORC files of any schema with orc-core's writer, for tests. */
public final class OrcTestFiles {

  /** Every ORC type, flat and nested, plus an all-null and a constant column. */
  public static final TypeDescription ALL_TYPES =
      TypeDescription.fromString(
          "struct<"
              + "b:boolean,i8:tinyint,i16:smallint,i32:int,i64:bigint,f32:float,f64:double,"
              + "s:string,c:char(5),vc:varchar(10),bin:binary,d10:decimal(10,2),d30:decimal(30,5),"
              + "dt:date,ts:timestamp,tsz:timestamp with local time zone,"
              + "lst:array<int>,m:map<string,double>,st:struct<x:int,y:string,z:struct<q:bigint>>,"
              + "u:uniontype<int,string>,lol:array<array<string>>,allnull:int,constant:bigint>");

  /** How a file is written. */
  /** A sorted, never-null row number column "id" and a few others. */
  public static final TypeDescription WITH_ID =
      TypeDescription.fromString(
          "struct<id:bigint,s:string,f64:double,st:struct<x:int,z:struct<q:bigint>>>");

  public record Spec(
      TypeDescription schema,
      int rows,
      CompressionKind codec,
      int rowIndexStride,
      int stripeRows,
      boolean nulls,
      long seed,
      String bloomFilterColumns) {

    public static Spec of(TypeDescription schema, int rows) {
      return new Spec(schema, rows, CompressionKind.ZLIB, 1000, 5000, true, 1, null);
    }

    public Spec bloomFilters(String columns) {
      return new Spec(schema, rows, codec, rowIndexStride, stripeRows, nulls, seed, columns);
    }

    public Spec codec(CompressionKind kind) {
      return new Spec(
          schema, rows, kind, rowIndexStride, stripeRows, nulls, seed, bloomFilterColumns);
    }

    public Spec nulls(boolean withNulls) {
      return new Spec(
          schema, rows, codec, rowIndexStride, stripeRows, withNulls, seed, bloomFilterColumns);
    }

    public Spec stride(int stride) {
      return new Spec(schema, rows, codec, stride, stripeRows, nulls, seed, bloomFilterColumns);
    }

    public Spec stripeRows(int count) {
      return new Spec(schema, rows, codec, rowIndexStride, count, nulls, seed, bloomFilterColumns);
    }
  }

  private OrcTestFiles() {}

  public static java.nio.file.Path write(java.nio.file.Path file, Spec spec) throws IOException {
    return write(file, spec, new Configuration(), options -> {});
  }

  /**
   * Writes {@code spec} with {@code conf} (orc-core's writer settings, such as the dictionary key
   * threshold) and then {@code more} applied to the writer options (a file version, a buffer size).
   */
  public static java.nio.file.Path write(
      java.nio.file.Path file,
      Spec spec,
      Configuration conf,
      java.util.function.Consumer<OrcFile.WriterOptions> more)
      throws IOException {
    OrcConf.STRIPE_ROW_COUNT.setLong(conf, spec.stripeRows());
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(conf)
            .setSchema(spec.schema())
            .compress(spec.codec())
            .rowIndexStride(spec.rowIndexStride())
            .stripeSize(64L << 20)
            .bufferSize(4096)
            .overwrite(true);
    if (spec.bloomFilterColumns() != null) {
      options.bloomFilterColumns(spec.bloomFilterColumns());
    }
    if (spec.rowIndexStride() == 0) {
      options.buildIndex(false);
    }
    more.accept(options);
    try (Writer writer = OrcFile.createWriter(new Path(file.toUri()), options)) {
      // 500-row batches, so that stripes end exactly at a multiple of 500 rows.
      VectorizedRowBatch batch = spec.schema().createRowBatch(500);
      int row = 0;
      while (row < spec.rows()) {
        batch.reset();
        int count = Math.min(batch.getMaxSize(), spec.rows() - row);
        List<TypeDescription> children = spec.schema().getChildren();
        List<String> names = spec.schema().getFieldNames();
        for (int c = 0; c < children.size(); c++) {
          ColumnVector vector = batch.cols[c];
          for (int i = 0; i < count; i++) {
            fill(vector, children.get(c), names.get(c), i, row + i, spec);
          }
        }
        batch.size = count;
        writer.addRowBatch(batch);
        row += count;
      }
    }
    return file;
  }

  private static long hash(long row, long salt, long seed) {
    long h = row * 0x9E3779B97F4A7C15L + salt * 0xC2B2AE3D27D4EB4FL + seed;
    h ^= h >>> 31;
    h *= 0xBF58476D1CE4E5B9L;
    return h ^ (h >>> 29);
  }

  private static void fill(
      ColumnVector v, TypeDescription type, String name, int slot, long row, Spec spec) {
    long salt = type.getId() * 131L + name.hashCode();
    long h = hash(row, salt, spec.seed());
    if (name.equals("id")) {
      ((LongColumnVector) v).vector[slot] = row; // the row number: sorted, never null
      return;
    }
    if (name.equals("allnull")
        || (spec.nulls() && Math.floorMod(h, 10) == 0 && !name.equals("constant"))) {
      v.noNulls = false;
      v.isNull[slot] = true;
      return;
    }
    v.isNull[slot] = false;
    switch (type.getCategory()) {
      case BOOLEAN -> ((LongColumnVector) v).vector[slot] = h & 1;
      case BYTE -> ((LongColumnVector) v).vector[slot] = (byte) h;
      case SHORT -> ((LongColumnVector) v).vector[slot] = (short) h;
      case INT -> ((LongColumnVector) v).vector[slot] = (int) (h >> 7);
      case LONG -> ((LongColumnVector) v).vector[slot] = name.equals("constant") ? 42 : h;
      case FLOAT -> ((DoubleColumnVector) v).vector[slot] = (float) ((h % 100000) / 7.0);
      case DOUBLE -> ((DoubleColumnVector) v).vector[slot] = (h % 1000000) / 3.0;
      case DATE -> ((LongColumnVector) v).vector[slot] = Math.floorMod(h, 40000) - 10000;
      case STRING, VARCHAR, CHAR, BINARY -> {
        int length = (int) Math.floorMod(h >> 3, 9);
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
          bytes[i] = (byte) ('a' + Math.floorMod(h >> (i * 5), 26));
        }
        if (type.getCategory() == TypeDescription.Category.BINARY && length > 0) {
          bytes[0] = (byte) (h >> 17);
        }
        ((BytesColumnVector) v).setVal(slot, bytes);
      }
      case DECIMAL -> {
        long unscaled = type.getPrecision() > 18 ? h : h % 10_000_000_000L;
        java.math.BigDecimal value =
            new java.math.BigDecimal(
                java.math.BigInteger.valueOf(unscaled)
                    .multiply(
                        type.getPrecision() > 18
                            ? java.math.BigInteger.valueOf(1_000_003)
                            : java.math.BigInteger.ONE),
                type.getScale());
        ((DecimalColumnVector) v).set(slot, HiveDecimal.create(value));
      }
      case TIMESTAMP, TIMESTAMP_INSTANT -> {
        TimestampColumnVector t = (TimestampColumnVector) v;
        long seconds = Math.floorMod(h, 4_000_000_000L) - 1_000_000_000L;
        int nanos = (int) Math.floorMod(h >> 11, 1_000_000_000L);
        t.time[slot] = seconds * 1000 + nanos / 1_000_000;
        t.nanos[slot] = nanos;
      }
      case LIST -> {
        ListColumnVector list = (ListColumnVector) v;
        int length = (int) Math.floorMod(h >> 5, 4);
        int offset = (int) list.childCount;
        list.offsets[slot] = offset;
        list.lengths[slot] = length;
        list.childCount += length;
        list.child.ensureSize(list.childCount, true);
        for (int i = 0; i < length; i++) {
          fill(list.child, type.getChildren().get(0), name + "[]", offset + i, row * 7 + i, spec);
        }
      }
      case MAP -> {
        MapColumnVector map = (MapColumnVector) v;
        int length = (int) Math.floorMod(h >> 5, 4);
        int offset = (int) map.childCount;
        map.offsets[slot] = offset;
        map.lengths[slot] = length;
        map.childCount += length;
        map.keys.ensureSize(map.childCount, true);
        map.values.ensureSize(map.childCount, true);
        for (int i = 0; i < length; i++) {
          ((BytesColumnVector) map.keys)
              .setVal(offset + i, ("k" + row + "_" + i).getBytes(StandardCharsets.UTF_8));
          fill(map.values, type.getChildren().get(1), name + "{}", offset + i, row * 5 + i, spec);
        }
      }
      case STRUCT -> {
        StructColumnVector struct = (StructColumnVector) v;
        for (int f = 0; f < struct.fields.length; f++) {
          fill(
              struct.fields[f],
              type.getChildren().get(f),
              type.getFieldNames().get(f),
              slot,
              row,
              spec);
        }
      }
      case UNION -> {
        UnionColumnVector union = (UnionColumnVector) v;
        int tag = (int) Math.floorMod(h >> 9, union.fields.length);
        union.tags[slot] = tag;
        fill(union.fields[tag], type.getChildren().get(tag), name + "|" + tag, slot, row, spec);
      }
      default -> throw new IllegalArgumentException("no generator for " + type);
    }
  }
}
