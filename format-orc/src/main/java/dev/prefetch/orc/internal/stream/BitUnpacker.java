package dev.prefetch.orc.internal.stream;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unpacks RLE v2's fixed-width values: {@code count} values of {@code width} bits (1 to 64), most
 * significant bit first, packed without gaps from a byte. Stateless.
 *
 * <p>Why it looks as it does: the byte-aligned widths (8, 16, 32, 64) are one big-endian load per
 * value, and the sub-byte ones (1, 2, 4) expand a byte per step; every other width (up to 56 bits)
 * is one unaligned 8-byte load, a shift and a mask per value, with no branch on the data, so C2
 * unrolls the loop. Values whose 8-byte load would reach past the array take the byte-wise path
 * (only at an array's very end), as do widths of 57 to 63 bits, which RLE v2 cannot state.
 */
final class BitUnpacker {

  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle SHORT_BE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  private BitUnpacker() {}

  /** Bytes that {@code count} values of {@code width} bits take. */
  static int bytes(int count, int width) {
    return (int) (((long) count * width + 7) >>> 3);
  }

  /**
   * Unpacks {@code count} values of {@code width} bits from {@code in[p, p + bytes(count, width))}
   * into {@code out[at, at + count)}. The caller has checked that those bytes lie in {@code in}.
   */
  static void unpack(byte[] in, int p, int width, long[] out, int at, int count) {
    switch (width) {
      case 1 -> unpack1(in, p, out, at, count);
      case 2 -> unpack2(in, p, out, at, count);
      case 4 -> unpack4(in, p, out, at, count);
      case 8 -> {
        for (int i = 0; i < count; i++) {
          out[at + i] = in[p + i] & 0xFFL;
        }
      }
      case 16 -> {
        for (int i = 0; i < count; i++) {
          out[at + i] = (short) SHORT_BE.get(in, p + 2 * i) & 0xFFFFL;
        }
      }
      case 32 -> {
        for (int i = 0; i < count; i++) {
          out[at + i] = (int) INT_BE.get(in, p + 4 * i) & 0xFFFFFFFFL;
        }
      }
      case 64 -> {
        for (int i = 0; i < count; i++) {
          out[at + i] = (long) LONG_BE.get(in, p + 8 * i);
        }
      }
      default -> unpackAny(in, p, width, out, at, count);
    }
  }

  private static void unpack1(byte[] in, int p, long[] out, int at, int count) {
    int whole = count >>> 3;
    for (int b = 0; b < whole; b++) {
      int v = in[p + b];
      int o = at + (b << 3);
      out[o] = (v >>> 7) & 1L;
      out[o + 1] = (v >>> 6) & 1L;
      out[o + 2] = (v >>> 5) & 1L;
      out[o + 3] = (v >>> 4) & 1L;
      out[o + 4] = (v >>> 3) & 1L;
      out[o + 5] = (v >>> 2) & 1L;
      out[o + 6] = (v >>> 1) & 1L;
      out[o + 7] = v & 1L;
    }
    for (int i = whole << 3; i < count; i++) {
      out[at + i] = (in[p + (i >>> 3)] >>> (7 - (i & 7))) & 1L;
    }
  }

  private static void unpack2(byte[] in, int p, long[] out, int at, int count) {
    int whole = count >>> 2;
    for (int b = 0; b < whole; b++) {
      int v = in[p + b];
      int o = at + (b << 2);
      out[o] = (v >>> 6) & 3L;
      out[o + 1] = (v >>> 4) & 3L;
      out[o + 2] = (v >>> 2) & 3L;
      out[o + 3] = v & 3L;
    }
    for (int i = whole << 2; i < count; i++) {
      out[at + i] = (in[p + (i >>> 2)] >>> (6 - 2 * (i & 3))) & 3L;
    }
  }

  private static void unpack4(byte[] in, int p, long[] out, int at, int count) {
    int whole = count >>> 1;
    for (int b = 0; b < whole; b++) {
      int v = in[p + b];
      out[at + 2 * b] = (v >>> 4) & 15L;
      out[at + 2 * b + 1] = v & 15L;
    }
    if ((count & 1) != 0) {
      out[at + count - 1] = (in[p + whole] >>> 4) & 15L;
    }
  }

  private static void unpackAny(byte[] in, int p, int width, long[] out, int at, int count) {
    int fast = 0;
    if (width <= 56) {
      // values whose 8-byte load ends inside the array: (i * width) / 8 + 8 <= in.length - p
      long room = in.length - 8L - p;
      fast = room < 0 ? 0 : (int) Math.min(count, room * 8 / width + 1);
      long mask = (1L << width) - 1;
      for (int i = 0; i < fast; i++) {
        long bit = (long) i * width;
        long word = (long) LONG_BE.get(in, p + (int) (bit >>> 3));
        out[at + i] = (word >>> (64 - width - (int) (bit & 7))) & mask;
      }
    }
    for (int i = fast; i < count; i++) {
      out[at + i] = bitwise(in, p, (long) i * width, width);
    }
  }

  /** The {@code width}-bit value at bit {@code bit} from {@code in[p]}, a byte at a time. */
  static long bitwise(byte[] in, int p, long bit, int width) {
    long value = 0;
    int left = width;
    long at = bit;
    while (left > 0) {
      int b = in[p + (int) (at >>> 3)] & 0xFF;
      int used = (int) (at & 7);
      int take = Math.min(8 - used, left);
      value = (value << take) | ((b >>> (8 - used - take)) & ((1 << take) - 1));
      left -= take;
      at += take;
    }
    return value;
  }
}
