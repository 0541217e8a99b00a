package dev.prefetch.arrow.internal;

import dev.prefetch.batch.DecimalVector;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Writes decimal and unsigned 64-bit values into Arrow's layouts: our unscaled longs (precision up
 * to 18) or big-endian two's-complement bytes become Arrow's little-endian 16 or 32 bytes, and the
 * DECIMAL(20, 0) bytes of an unsigned 64-bit integer become its 64 bits.
 *
 * <p>The long-backed and unsigned paths store straight into the buffer's memory, one bounds check
 * per buffer, instead of filling a scratch array and copying it: half the memory traffic, and
 * nothing per value but the stores.
 */
final class Decimals {

  private Decimals() {}

  /** {@code count} long-backed values of {@code width} bytes (16 or 32) each. */
  static void longs(DecimalVector v, int count, int width, ArrowBuf out) {
    long[] unscaled = v.unscaledLongs();
    check(out, (long) count * width, unscaled.length, count);
    long address = out.memoryAddress();
    if (width == 16) {
      // Decimal128, the common width: low word, then the sign extension.
      for (int i = 0; i < count; i++, address += 16) {
        long value = unscaled[i];
        HeapBits.putLong(address, value);
        HeapBits.putLong(address + 8, value >> 63);
      }
      return;
    }
    for (int i = 0; i < count; i++) {
      long value = unscaled[i];
      long sign = value >> 63;
      HeapBits.putLong(address, value);
      for (int k = 8; k < width; k += 8) {
        HeapBits.putLong(address + k, sign);
      }
      address += width;
    }
  }

  /** {@code count} byte-backed values, through {@code scratch} of at least count x width bytes. */
  static void bytes(DecimalVector v, int count, int width, byte[] scratch, ArrowBuf out) {
    byte[] data = v.data();
    int[] offsets = v.offsets();
    int total = Math.multiplyExact(count, width);
    boolean[] nulls = v.nullMask();
    for (int i = 0; i < count; i++) {
      int start = offsets[i];
      int length = offsets[i + 1] - start;
      int at = i * width;
      if (length > width) {
        if (nulls != null && nulls[i]) {
          length = 0;
        } else {
          throw new IllegalStateException(
              "decimal value " + i + " has " + length + " bytes, more than " + width);
        }
      }
      for (int k = 0; k < length; k++) {
        scratch[at + k] = data[start + length - 1 - k];
      }
      byte sign = length > 0 && data[start] < 0 ? (byte) -1 : 0;
      for (int k = length; k < width; k++) {
        scratch[at + k] = sign;
      }
    }
    out.setBytes(0, scratch, 0, total);
  }

  /** {@code count} unsigned 64-bit integers held as DECIMAL(20, 0) bytes. */
  static void uint64(DecimalVector v, int count, ArrowBuf out) {
    byte[] data = v.data();
    int[] offsets = v.offsets();
    check(out, 8L * count, offsets.length - 1, count);
    long address = out.memoryAddress();
    for (int i = 0; i < count; i++, address += 8) {
      int end = offsets[i + 1];
      // The unscaled value is below 2^64: at most 9 bytes, the first a zero sign byte.
      int start = Math.max(offsets[i], end - 8);
      long bits = 0;
      for (int k = start; k < end; k++) {
        bits = (bits << 8) | (data[k] & 0xFF);
      }
      HeapBits.putLong(address, bits);
    }
  }

  private static void check(ArrowBuf out, long bytes, int values, int count) {
    if (out.capacity() < bytes || values < count) {
      throw new IllegalStateException(
          "cannot write "
              + count
              + " decimals ("
              + bytes
              + " bytes) from "
              + values
              + " values into a buffer of "
              + out.capacity());
    }
  }
}
