package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.util.Arrays;
import java.util.Objects;

/**
 * Byte RLE (the DATA of {@code tinyint} columns and union tags, and the bytes under every boolean
 * stream): a header byte of 0 to 127 starts a run of {@code header + 3} copies of the next byte; a
 * header of -128 to -1 starts {@code -header} literal bytes.
 *
 * <p>A literal run's bytes are made contiguous in the window when its header is read, and copied
 * from there with {@link System#arraycopy} (the window does not move while the run lasts: only this
 * decoder reads its stream). A repeated run is an {@link Arrays#fill}.
 *
 * <p>Confined to one thread.
 */
public final class ByteRleDecoder {

  private static final int MIN_REPEAT = 3;

  private final StreamInput input;

  /** Values left in the current run. */
  private int runLeft;

  /**
   * Whether the current run repeats {@link #value}; else its bytes are at the window's position.
   */
  private boolean repeat;

  private byte value;

  public ByteRleDecoder(StreamInput input) {
    this.input = Objects.requireNonNull(input, "input is null");
  }

  /** The stream this decoder reads. */
  public StreamInput input() {
    return input;
  }

  private void readHeader() throws CorruptStreamException {
    if (!input.hasMore()) {
      throw new CorruptStreamException(
          input.name(), "the stream ends, but more values are wanted from it");
    }
    int header = (byte) input.readUnsignedByte();
    if (header >= 0) {
      runLeft = header + MIN_REPEAT;
      repeat = true;
      value = (byte) input.readUnsignedByte();
    } else {
      runLeft = -header;
      repeat = false;
      input.ensure(runLeft);
    }
  }

  /** The next byte. */
  public byte next() throws CorruptStreamException {
    if (runLeft == 0) {
      readHeader();
    }
    runLeft--;
    if (repeat) {
      return value;
    }
    int p = input.position();
    input.position(p + 1);
    return input.array()[p];
  }

  /**
   * Decodes the next {@code count} bytes into {@code out[offset, offset + count)}.
   *
   * @throws CorruptStreamException when the stream holds fewer
   */
  public void decode(byte[] out, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int left = count;
    while (left > 0) {
      if (runLeft == 0) {
        readHeader();
      }
      int n = Math.min(runLeft, left);
      if (repeat) {
        Arrays.fill(out, offset, offset + n, value);
      } else {
        int p = input.position();
        System.arraycopy(input.array(), p, out, offset, n);
        input.position(p + n);
      }
      runLeft -= n;
      offset += n;
      left -= n;
    }
  }

  /** Passes over the next {@code count} bytes. */
  public void skip(long count) throws CorruptStreamException {
    if (count < 0) {
      throw new IllegalArgumentException("negative skip " + count);
    }
    long left = count;
    while (left > 0) {
      if (runLeft == 0) {
        readHeader();
      }
      int n = (int) Math.min(runLeft, left);
      if (!repeat) {
        input.position(input.position() + n);
      }
      runLeft -= n;
      left -= n;
    }
  }

  /**
   * Passes over the next {@code count} bytes, counting their set bits (a PRESENT stream skipping
   * rows counts the values its column's other streams skip).
   */
  public long skipCountingBits(long count) throws CorruptStreamException {
    if (count < 0) {
      throw new IllegalArgumentException("negative skip " + count);
    }
    long bits = 0;
    long left = count;
    while (left > 0) {
      if (runLeft == 0) {
        readHeader();
      }
      int n = (int) Math.min(runLeft, left);
      if (repeat) {
        bits += (long) Integer.bitCount(value & 0xFF) * n;
      } else {
        byte[] a = input.array();
        int p = input.position();
        int set = 0;
        for (int i = p; i < p + n; i++) {
          set += Integer.bitCount(a[i] & 0xFF);
        }
        bits += set;
        input.position(p + n);
      }
      runLeft -= n;
      left -= n;
    }
    return bits;
  }

  /**
   * Seeks to a row index position: the stream's position, then the bytes of the run there to skip.
   */
  public void seek(IndexPositions positions) throws CorruptStreamException {
    input.seek(positions);
    runLeft = 0;
    skip(positions.next(input.name()));
  }
}
