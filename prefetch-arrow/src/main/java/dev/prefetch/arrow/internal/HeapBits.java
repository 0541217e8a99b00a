package dev.prefetch.arrow.internal;

import java.lang.reflect.Field;
import java.nio.ByteOrder;
import sun.misc.Unsafe;

/**
 * Reads a {@code boolean[]} 64 values at a time as one word of bits (bit {@code k} set where value
 * {@code k} is true), for Arrow's bitmaps, and writes longs into Arrow memory whose bounds the
 * caller has checked.
 *
 * <p>Why {@code sun.misc.Unsafe}: Java has no safe view of a {@code boolean[]} as wider words, and
 * a bit per value costs a load, a test, a shift and an or (about 2.5 ns per value here, for every
 * nullable column of every batch). Read as longs, eight booleans (bytes of 0 or 1) pack into one
 * byte with a multiply, about a tenth of that. Arrow's own memory layer rests on the same class, so
 * this adds no requirement. Every access is bounds-checked by the public methods before the
 * unchecked reads; a failed check is an {@code IllegalStateException}, never a read past an array.
 */
final class HeapBits {

  private static final Unsafe UNSAFE = unsafe();
  private static final long BOOLEAN_BASE = UNSAFE.arrayBaseOffset(boolean[].class);
  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  /** One bit of each byte: a boolean is stored as 0 or 1, and HotSpot reads only that bit. */
  private static final long LOW_BITS = 0x0101_0101_0101_0101L;

  /**
   * Moves the low bit of byte {@code k} of a word to bit {@code 56 + k}: the partial products of
   * byte {@code k} and multiplier byte {@code 7 - k} land there, and no two partial products share
   * a bit, so nothing carries.
   */
  private static final long GATHER = 0x0102_0408_1020_4080L;

  private HeapBits() {}

  private static Unsafe unsafe() {
    try {
      Field f = Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Unsafe u = (Unsafe) f.get(null);
      if (u.arrayIndexScale(boolean[].class) != 1) {
        throw new IllegalStateException("a boolean[] element is not one byte on this JVM");
      }
      return u;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("sun.misc.Unsafe is not available", e);
    }
  }

  /** Throws unless {@code array} holds at least {@code count} values. */
  static void checkLength(boolean[] array, int count, String what) {
    if (array.length < count) {
      throw new IllegalStateException(
          what + " holds " + array.length + " values, fewer than the " + count + " rows");
    }
  }

  /**
   * The bits of {@code array[base, base + n)} for {@code n <= 64}, value {@code k} at bit {@code
   * k}; bits from {@code n} up are 0. The caller has checked {@code base + n <= array.length}.
   */
  static long word(boolean[] array, int base, int n) {
    if (n == 64 && LITTLE_ENDIAN) {
      long at = BOOLEAN_BASE + base;
      long bits = 0;
      for (int j = 0; j < 8; j++) {
        long bytes = UNSAFE.getLong(array, at + 8L * j) & LOW_BITS;
        bits |= ((bytes * GATHER) >>> 56) << (j << 3);
      }
      return bits;
    }
    long bits = 0;
    for (int k = 0; k < n; k++) {
      bits |= (array[base + k] ? 1L : 0L) << k;
    }
    return bits;
  }

  /**
   * Stores {@code value} little-endian (Arrow's byte order) at native address {@code address},
   * which the caller has checked lies inside a buffer.
   */
  static void putLong(long address, long value) {
    UNSAFE.putLong(address, LITTLE_ENDIAN ? value : Long.reverseBytes(value));
  }
}
