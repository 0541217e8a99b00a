package dev.prefetch.parquet.internal.page;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Little-endian numbers in page bytes: the 4-byte length in front of a section or a value, and runs
 * of fixed-width values copied into a primitive array with one bulk buffer transfer (a memory copy
 * on little-endian machines). The one place where a decoder turns bytes into typed values in bulk.
 */
final class LittleEndian {

  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndian() {}

  /**
   * The 4-byte length at {@code pos}, checked to fit with its bytes before {@code end}.
   *
   * @param what what the length measures (its message names it, and {@code whose} when not null)
   * @throws IllegalStateException when the length or the bytes it claims pass {@code end}
   */
  static int length(byte[] data, int pos, int end, String what, Object whose) {
    if (end - pos < 4) {
      throw new IllegalStateException(named(what, whose) + ": length past the end of the page");
    }
    int length = (int) INT.get(data, pos);
    if (length < 0 || length > end - pos - 4) {
      throw new IllegalStateException(
          named(what, whose)
              + " of "
              + length
              + " bytes with "
              + (end - pos - 4)
              + " left in the page");
    }
    return length;
  }

  private static String named(String what, Object whose) {
    return whose == null ? what : what + " of " + whose;
  }

  /** The bytes of one value of {@code out}'s element type: 4 or 8. */
  static int width(Object out) {
    return out instanceof long[] || out instanceof double[] ? 8 : 4;
  }

  /**
   * Copies {@code count} values from {@code bytes} (at its position, little endian) into {@code
   * out} from {@code offset}.
   *
   * @param out an {@code int[]}, {@code long[]}, {@code float[]} or {@code double[]}
   */
  static void copy(ByteBuffer bytes, Object out, int offset, int count) {
    ByteBuffer little = bytes.order(ByteOrder.LITTLE_ENDIAN);
    if (out instanceof int[] ints) {
      little.asIntBuffer().get(ints, offset, count);
    } else if (out instanceof long[] longs) {
      little.asLongBuffer().get(longs, offset, count);
    } else if (out instanceof float[] floats) {
      little.asFloatBuffer().get(floats, offset, count);
    } else if (out instanceof double[] doubles) {
      little.asDoubleBuffer().get(doubles, offset, count);
    } else {
      throw new UnsupportedOperationException(
          "no fixed-width values into a " + out.getClass().getSimpleName());
    }
  }
}
