package dev.prefetch.orc.internal;

import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.StructVector;
import dev.prefetch.spi.VectorArrayPool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;
import org.apache.orc.TypeDescription;

/**
 * Converts orc-core's column vectors into the project's vectors, for the rows {@code [start, start
 * + count)} of a batch.
 *
 * <p>No copy where the layouts match and the run starts at row 0 of a vector that does not repeat:
 * bigint, double and decimal(p &le; 18) values ({@code long[]}/{@code double[]}) and null masks
 * ({@code boolean[]}) are handed over as they are, and so is the byte array of a batch of strings
 * or binaries that orc-core read back to back into an array of their exact length. The reader
 * reuses one orc-core batch, so every array handed over is noted, and {@link #release()} (called
 * once all runs of a batch are converted, before orc-core fills the batch again) gives those
 * orc-core vectors fresh arrays: orc-core never writes an array it has handed over, and nothing
 * else of the batch is allocated again. Everything else is copied into arrays of the target layout:
 * narrower integers, floats, booleans, dates, timestamps (millis + nanos to one long of nanos),
 * bytes (orc-core's per-value references to shared buffers become one contiguous array, in one copy
 * when the values already lie back to back), wide decimals, and every repeating vector.
 *
 * <p>Timestamps: orc-core splits a value into {@code time[i]} (milliseconds since the epoch) and
 * {@code nanos[i]} (the nanosecond of the second, which includes the milliseconds); the value is
 * {@code floorDiv(time, 1000) * 1e9 + nanos}, exact, or an {@link ArithmeticException} outside the
 * years 1677..2262 (a negative {@code nanos}, out of the format's range but written by Arrow's ORC
 * adapter, counts back from its second: {@link OrcCopies#nanosOf}). The reader opens files with
 * orc-core's UTC timestamp option, so a plain timestamp's value is its wall-clock date-time read as
 * if it were UTC.
 *
 * <p>Threads: confined to its range reader's thread, like the batch it converts.
 */
final class VectorConverter {

  /**
   * An orc-core vector whose array went into a converted vector, and the pool to refill it from.
   */
  private record Lent<V>(V vector, VectorArrayPool arrays) {}

  /** orc-core vectors whose {@code isNull} array was handed over since the last release. */
  private final List<Lent<org.apache.hadoop.hive.ql.exec.vector.ColumnVector>> lentNulls =
      new ArrayList<>();

  /** orc-core vectors whose {@code long[]} values were handed over since the last release. */
  private final List<Lent<LongColumnVector>> lentLongs = new ArrayList<>();

  /** orc-core vectors whose {@code double[]} values were handed over since the last release. */
  private final List<Lent<DoubleColumnVector>> lentDoubles = new ArrayList<>();

  /**
   * Gives every orc-core vector whose arrays went into converted vectors other arrays of at least
   * the same capacity (released ones from the column's pool, else new ones), so that orc-core's
   * next batch cannot write into them.
   */
  void release() {
    for (int i = 0; i < lentNulls.size(); i++) {
      Lent<org.apache.hadoop.hive.ql.exec.vector.ColumnVector> lent = lentNulls.get(i);
      lent.vector().isNull = lent.arrays().mask(lent.vector().isNull.length);
    }
    for (int i = 0; i < lentLongs.size(); i++) {
      Lent<LongColumnVector> lent = lentLongs.get(i);
      lent.vector().vector = lent.arrays().values(long[].class, lent.vector().vector.length);
    }
    for (int i = 0; i < lentDoubles.size(); i++) {
      Lent<DoubleColumnVector> lent = lentDoubles.get(i);
      lent.vector().vector = lent.arrays().values(double[].class, lent.vector().vector.length);
    }
    lentNulls.clear();
    lentLongs.clear();
    lentDoubles.clear();
  }

  /**
   * Converts runs of one column's orc-core vectors: chosen once per column from its type ({@link
   * #conversion}), so that each kind of column is its own small piece of compiled code. One
   * conversion for every type behind a switch was compiled as one method of some 37 KB, and
   * compiled again whenever a rarely taken branch of its inlined parts was first taken: three times
   * in a fresh JVM's first two scans, a second of compilation each time on a 2-core machine.
   */
  interface Conversion {
    /** The run {@code [start, start + count)} of {@code v}; new arrays come from {@code arrays}. */
    ColumnVector convert(
        org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
        int start,
        int count,
        VectorArrayPool arrays);
  }

  /** The conversion of a column of ORC type {@code type} into vectors of {@code dataType}. */
  Conversion conversion(TypeDescription type, DataType dataType) {
    switch (type.getCategory()) {
      case BOOLEAN:
        return (v, start, count, arrays) ->
            NarrowedCopies.booleans(
                dataType, v, start, count, nulls(v, start, count, arrays), arrays);
      case BYTE:
        return (v, start, count, arrays) ->
            NarrowedCopies.bytes(dataType, v, start, count, nulls(v, start, count, arrays), arrays);
      case SHORT:
        return (v, start, count, arrays) ->
            NarrowedCopies.shorts(
                dataType, v, start, count, nulls(v, start, count, arrays), arrays);
      case INT:
      case DATE:
        return (v, start, count, arrays) ->
            NarrowedCopies.ints(dataType, v, start, count, nulls(v, start, count, arrays), arrays);
      case LONG:
        return (v, start, count, arrays) ->
            new LongVector(
                dataType,
                count,
                longs((LongColumnVector) v, start, count, arrays),
                nulls(v, start, count, arrays));
      case FLOAT:
        return (v, start, count, arrays) ->
            NarrowedCopies.floats(
                dataType, v, start, count, nulls(v, start, count, arrays), arrays);
      case DOUBLE:
        return (v, start, count, arrays) ->
            new DoubleVector(
                dataType,
                count,
                doubles((DoubleColumnVector) v, start, count, arrays),
                nulls(v, start, count, arrays));
      case STRING:
      case CHAR:
      case VARCHAR:
      case BINARY:
      case Geometry:
      case Geography:
        return (v, start, count, arrays) ->
            OrcCopies.bytes(
                dataType, (BytesColumnVector) v, start, count, nulls(v, start, count, arrays));
      case DECIMAL:
        return (v, start, count, arrays) ->
            decimal(type, dataType, v, start, count, nulls(v, start, count, arrays), arrays);
      case TIMESTAMP:
      case TIMESTAMP_INSTANT:
        return (v, start, count, arrays) ->
            new LongVector(
                dataType,
                count,
                OrcCopies.timestamps((TimestampColumnVector) v, start, count),
                nulls(v, start, count, arrays));
      case LIST:
        {
          Conversion elements =
              conversion(type.getChildren().get(0), dataType.elementField().type());
          return (v, start, count, arrays) -> list(dataType, elements, v, start, count, arrays);
        }
      case MAP:
        {
          Conversion keys = conversion(type.getChildren().get(0), dataType.keyField().type());
          Conversion values = conversion(type.getChildren().get(1), dataType.valueField().type());
          return (v, start, count, arrays) -> map(dataType, keys, values, v, start, count, arrays);
        }
      case STRUCT:
        {
          List<Conversion> fields = childConversions(type.getChildren(), dataType, 0);
          return (v, start, count, arrays) -> struct(dataType, fields, v, start, count, arrays);
        }
      case UNION:
        {
          // the children of the union's struct: its tag, then one field per alternative
          List<Conversion> alternatives = childConversions(type.getChildren(), dataType, 1);
          return (v, start, count, arrays) ->
              union(dataType, alternatives, (UnionColumnVector) v, start, count, arrays);
        }
      default:
        throw new IllegalArgumentException("unsupported ORC type " + type);
    }
  }

  /**
   * The conversions of {@code children}, into the fields of {@code dataType} from {@code first}.
   */
  private List<Conversion> childConversions(
      List<TypeDescription> children, DataType dataType, int first) {
    List<Conversion> conversions = new ArrayList<>(children.size());
    for (int f = 0; f < children.size(); f++) {
      conversions.add(conversion(children.get(f), dataType.children().get(first + f).type()));
    }
    return List.copyOf(conversions);
  }

  private ListVector list(
      DataType dataType,
      Conversion elements,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      VectorArrayPool arrays) {
    ListColumnVector list = (ListColumnVector) v;
    boolean[] nulls = nulls(v, start, count, arrays);
    int[] offsets = new int[count + 1];
    int childStart = OrcCopies.childOffsets(list.offsets, list.lengths, v, start, count, offsets);
    ColumnVector values = elements.convert(list.child, childStart, offsets[count], arrays);
    return new ListVector(dataType, count, offsets, values, nulls);
  }

  private MapVector map(
      DataType dataType,
      Conversion keys,
      Conversion values,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      VectorArrayPool arrays) {
    MapColumnVector map = (MapColumnVector) v;
    boolean[] nulls = nulls(v, start, count, arrays);
    int[] offsets = new int[count + 1];
    int childStart = OrcCopies.childOffsets(map.offsets, map.lengths, v, start, count, offsets);
    ColumnVector keyVector = keys.convert(map.keys, childStart, offsets[count], arrays);
    ColumnVector valueVector = values.convert(map.values, childStart, offsets[count], arrays);
    return new MapVector(dataType, count, offsets, keyVector, valueVector, nulls);
  }

  private StructVector struct(
      DataType dataType,
      List<Conversion> fields,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      VectorArrayPool arrays) {
    StructColumnVector struct = (StructColumnVector) v;
    boolean[] nulls = nulls(v, start, count, arrays);
    List<ColumnVector> children = new ArrayList<>(fields.size());
    for (int f = 0; f < fields.size(); f++) {
      children.add(fields.get(f).convert(struct.fields[f], start, count, arrays));
    }
    return new StructVector(dataType, count, children, nulls);
  }

  /** The null mask of the run, or null when no value in it is null. */
  private boolean[] nulls(
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      VectorArrayPool arrays) {
    if (v.noNulls) {
      return null;
    }
    if (v.isRepeating) {
      if (!v.isNull[0]) {
        return null;
      }
      boolean[] all = arrays.mask(count);
      Arrays.fill(all, 0, count, true);
      return all;
    }
    if (start != 0) {
      boolean[] part = arrays.mask(count);
      System.arraycopy(v.isNull, start, part, 0, count);
      return part;
    }
    lentNulls.add(new Lent<>(v, arrays));
    return v.isNull;
  }

  private long[] longs(LongColumnVector v, int start, int count, VectorArrayPool arrays) {
    if (v.isRepeating) {
      long[] out = arrays.values(long[].class, count);
      Arrays.fill(out, 0, count, v.vector[0]);
      return out;
    }
    if (start != 0) {
      long[] part = arrays.values(long[].class, count);
      System.arraycopy(v.vector, start, part, 0, count);
      return part;
    }
    lentLongs.add(new Lent<>(v, arrays));
    return v.vector;
  }

  private double[] doubles(DoubleColumnVector v, int start, int count, VectorArrayPool arrays) {
    if (v.isRepeating) {
      double[] out = arrays.values(double[].class, count);
      Arrays.fill(out, 0, count, v.vector[0]);
      return out;
    }
    if (start != 0) {
      double[] part = arrays.values(double[].class, count);
      System.arraycopy(v.vector, start, part, 0, count);
      return part;
    }
    lentDoubles.add(new Lent<>(v, arrays));
    return v.vector;
  }

  private DecimalVector decimal(
      TypeDescription type,
      DataType dataType,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      boolean[] nulls,
      VectorArrayPool arrays) {
    if (v instanceof Decimal64ColumnVector d64) {
      // Unscaled values at the column's scale, as the decimal vector wants them.
      return DecimalVector.ofLongs(dataType, count, longs(d64, start, count, arrays), nulls);
    }
    DecimalColumnVector dv = (DecimalColumnVector) v;
    int scale = type.getScale();
    if (type.getPrecision() <= DataType.MAX_LONG_DECIMAL_PRECISION) {
      long[] out = arrays.values(long[].class, count);
      for (int i = 0; i < count; i++) {
        int row = v.isRepeating ? 0 : start + i;
        out[i] =
            nulls == null || !nulls[i] ? OrcCopies.unscaled(dv, row, scale).longValueExact() : 0;
      }
      return DecimalVector.ofLongs(dataType, count, out, nulls);
    }
    byte[][] values = new byte[count][];
    int[] offsets = new int[count + 1];
    int total = 0;
    for (int i = 0; i < count; i++) {
      int row = v.isRepeating ? 0 : start + i;
      if (nulls == null || !nulls[i]) {
        values[i] = OrcCopies.unscaled(dv, row, scale).toByteArray();
        total = Math.addExact(total, values[i].length);
      }
      offsets[i + 1] = total;
    }
    byte[] data = new byte[total];
    for (int i = 0; i < count; i++) {
      if (values[i] != null) {
        System.arraycopy(values[i], 0, data, offsets[i], values[i].length);
      }
    }
    return DecimalVector.ofBytes(dataType, count, data, offsets, nulls);
  }

  private StructVector union(
      DataType dataType,
      List<Conversion> alternatives,
      UnionColumnVector v,
      int start,
      int count,
      VectorArrayPool arrays) {
    boolean[] nulls = nulls(v, start, count, arrays);
    byte[] tags = new byte[count];
    for (int i = 0; i < count; i++) {
      tags[i] = (byte) v.tags[v.isRepeating ? 0 : start + i];
    }
    List<ColumnVector> fields = new ArrayList<>(alternatives.size() + 1);
    fields.add(new ByteVector(DataType.int8(), count, tags, nulls == null ? null : nulls.clone()));
    for (int f = 0; f < alternatives.size(); f++) {
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector child = v.fields[f];
      if (v.isRepeating && !v.noNulls && v.isNull[0]) {
        // a run of nulls of the alternative's type: the union is null throughout
        child.noNulls = false;
        child.isRepeating = true;
        child.isNull[0] = true;
        fields.add(alternatives.get(f).convert(child, 0, count, arrays));
      } else {
        fields.add(alternatives.get(f).convert(child, start, count, arrays));
      }
    }
    return new StructVector(dataType, count, fields, nulls);
  }
}
