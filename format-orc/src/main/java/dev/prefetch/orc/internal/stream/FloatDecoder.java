package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The DATA of a {@code float} column: 4-byte little-endian IEEE 754 values. Each step reads the
 * whole values the window holds with one unaligned load each (C2 unrolls it); a value that
 * straddles two blocks is joined first.
 *
 * <p>Confined to one thread.
 */
public final class FloatDecoder {

  private static final VarHandle FLOAT_LE =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  private final StreamInput input;

  public FloatDecoder(StreamInput input) {
    this.input = Objects.requireNonNull(input, "input is null");
  }

  /** The stream this decoder reads. */
  public StreamInput input() {
    return input;
  }

  /** Decodes the next {@code count} values into {@code out[offset, offset + count)}. */
  public void decode(float[] out, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int o = offset;
    int left = count;
    while (left > 0) {
      int whole = input.remaining() >>> 2;
      if (whole == 0) {
        input.ensure(Float.BYTES);
        continue;
      }
      int n = Math.min(whole, left);
      byte[] a = input.array();
      int p = input.position();
      for (int i = 0; i < n; i++) {
        out[o + i] = (float) FLOAT_LE.get(a, p + 4 * i);
      }
      input.position(p + 4 * n);
      o += n;
      left -= n;
    }
  }

  /** Passes over the next {@code count} values. */
  public void skip(long count) throws CorruptStreamException {
    input.skip(Math.multiplyExact(count, (long) Float.BYTES));
  }

  /** Seeks to a row index position (the stream's only). */
  public void seek(IndexPositions positions) throws CorruptStreamException {
    input.seek(positions);
  }
}
