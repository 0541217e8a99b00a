package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.util.Objects;

/**
 * A directly encoded {@code string}, {@code char}, {@code varchar} or {@code binary} column: the
 * values' bytes one after another in DATA, their lengths as unsigned integers in LENGTH.
 *
 * <p>A column reader decodes a batch's lengths first ({@link #decodeLengths}, which checks their
 * sum against what DATA can still hold), sizes its byte array from the sum, then copies the bytes
 * in one call ({@link #readBytes}).
 *
 * <p>Confined to one thread.
 */
public final class StringDirectDecoder {

  private final StreamInput data;
  private final IntegerDecoder lengths;

  /**
   * @param data the DATA stream
   * @param lengths the LENGTH stream's unsigned integer decoder
   */
  public StringDirectDecoder(StreamInput data, IntegerDecoder lengths) {
    this.data = Objects.requireNonNull(data, "data is null");
    this.lengths = Objects.requireNonNull(lengths, "lengths is null");
  }

  /**
   * Decodes the lengths of the next {@code count} values into {@code out[offset, offset + count)}.
   *
   * @return their sum: the bytes {@link #readBytes} is to copy next
   * @throws CorruptStreamException when a length is negative or too large, or their sum more than
   *     DATA can still hold
   */
  public long decodeLengths(int[] out, int offset, int count) throws CorruptStreamException {
    long sum = lengths.decodeLengths(out, offset, count);
    checkBytes(sum);
    return sum;
  }

  private void checkBytes(long sum) throws CorruptStreamException {
    long most = data.maxRemainingBytes();
    if (sum > most) {
      throw new CorruptStreamException(
          data.name(),
          "values of "
              + sum
              + " bytes in all, more than the rest of the stream can hold ("
              + most
              + ")");
    }
  }

  /** Copies the next {@code length} bytes of values into {@code out[offset, offset + length)}. */
  public void readBytes(byte[] out, int offset, int length) throws CorruptStreamException {
    data.readFully(out, offset, length);
  }

  /** Passes over the next {@code count} values: their lengths, then their bytes. */
  public void skip(long count) throws CorruptStreamException {
    long sum = lengths.skipLengths(count);
    checkBytes(sum);
    data.skip(sum);
  }

  /** Seeks to a row index position: DATA's positions, then LENGTH's. */
  public void seek(IndexPositions positions) throws CorruptStreamException {
    data.seek(positions);
    lengths.seek(positions);
  }
}
