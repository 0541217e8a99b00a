package dev.prefetch.orc.internal;

import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.spi.VectorArrayPool;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * The conversions of {@link VectorConverter} that copy orc-core's {@code long[]} or {@code
 * double[]} values into a narrower array of the column's type (booleans, bytes, shorts, ints and
 * dates, floats), taken from the column's pool of released arrays. Stateless.
 */
final class NarrowedCopies {

  private NarrowedCopies() {}

  static BooleanVector booleans(
      DataType dataType,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      boolean[] nulls,
      VectorArrayPool arrays) {
    long[] in = ((LongColumnVector) v).vector;
    boolean[] out = arrays.values(boolean[].class, count);
    if (v.isRepeating) {
      Arrays.fill(out, 0, count, in[0] != 0);
    } else {
      for (int i = 0; i < count; i++) {
        out[i] = in[start + i] != 0;
      }
    }
    return new BooleanVector(dataType, count, out, nulls);
  }

  static ByteVector bytes(
      DataType dataType,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      boolean[] nulls,
      VectorArrayPool arrays) {
    long[] in = ((LongColumnVector) v).vector;
    byte[] out = arrays.values(byte[].class, count);
    if (v.isRepeating) {
      Arrays.fill(out, 0, count, (byte) in[0]);
    } else {
      for (int i = 0; i < count; i++) {
        out[i] = (byte) in[start + i];
      }
    }
    return new ByteVector(dataType, count, out, nulls);
  }

  static ShortVector shorts(
      DataType dataType,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      boolean[] nulls,
      VectorArrayPool arrays) {
    long[] in = ((LongColumnVector) v).vector;
    short[] out = arrays.values(short[].class, count);
    if (v.isRepeating) {
      Arrays.fill(out, 0, count, (short) in[0]);
    } else {
      for (int i = 0; i < count; i++) {
        out[i] = (short) in[start + i];
      }
    }
    return new ShortVector(dataType, count, out, nulls);
  }

  static IntVector ints(
      DataType dataType,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      boolean[] nulls,
      VectorArrayPool arrays) {
    long[] in = ((LongColumnVector) v).vector;
    int[] out = arrays.values(int[].class, count);
    if (v.isRepeating) {
      Arrays.fill(out, 0, count, (int) in[0]);
    } else {
      for (int i = 0; i < count; i++) {
        out[i] = (int) in[start + i];
      }
    }
    return new IntVector(dataType, count, out, nulls);
  }

  static FloatVector floats(
      DataType dataType,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      boolean[] nulls,
      VectorArrayPool arrays) {
    double[] in = ((DoubleColumnVector) v).vector;
    float[] out = arrays.values(float[].class, count);
    if (v.isRepeating) {
      Arrays.fill(out, 0, count, (float) in[0]);
    } else {
      for (int i = 0; i < count; i++) {
        out[i] = (float) in[start + i];
      }
    }
    return new FloatVector(dataType, count, out, nulls);
  }
}
