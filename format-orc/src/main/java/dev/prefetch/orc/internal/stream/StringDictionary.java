package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.StreamInput;
import java.util.Objects;

/**
 * The dictionary of a dictionary-encoded {@code string}, {@code char} or {@code varchar} column in
 * one stripe: the entries' bytes one after another in {@code data}, entry {@code i} at {@code
 * [offsets[i], offsets[i + 1])}. Read whole from DICTIONARY_DATA and LENGTH once per stripe; the
 * column's DATA stream holds ids into it ({@link IntegerDecoder#decodeIds}).
 *
 * <p>The arrays are this dictionary's own, laid out as a binary vector's, so a dictionary vector
 * can wrap them without a copy. Not copied by the accessors: do not modify.
 */
public final class StringDictionary {

  private final byte[] data;
  private final int[] offsets;
  private final int size;

  /**
   * @param data the entries' bytes
   * @param offsets {@code size + 1} offsets into {@code data}, from 0 to at most its length
   * @param size the number of entries
   */
  public StringDictionary(byte[] data, int[] offsets, int size) {
    Objects.requireNonNull(data, "data is null");
    Objects.requireNonNull(offsets, "offsets is null");
    if (size < 0 || offsets.length < size + 1 || offsets[0] != 0 || offsets[size] > data.length) {
      throw new IllegalArgumentException(
          "a dictionary of "
              + size
              + " entries needs "
              + (size + 1)
              + " offsets from 0 to at most "
              + data.length);
    }
    this.data = data;
    this.offsets = offsets;
    this.size = size;
  }

  /** The entries' bytes. */
  public byte[] data() {
    return data;
  }

  /**
   * {@code size() + 1} offsets into {@link #data()}: entry {@code i} is {@code [offsets[i],
   * offsets[i + 1])}.
   */
  public int[] offsets() {
    return offsets;
  }

  /** The number of entries. */
  public int size() {
    return size;
  }

  /**
   * Reads a dictionary of {@code size} entries (the stripe footer's dictionary size for the
   * column): their lengths from {@code lengths}, then their bytes from {@code dictionaryData}.
   * Checks {@code size} against what {@code lengths} can hold and the lengths' sum against what
   * {@code dictionaryData} can hold before allocating for either.
   *
   * @throws CorruptStreamException when the streams hold less than the dictionary claims
   */
  public static StringDictionary read(StreamInput dictionaryData, IntegerDecoder lengths, int size)
      throws CorruptStreamException {
    if (size < 0) {
      throw new CorruptStreamException(
          lengths.input().name(), "a dictionary of " + Integer.toUnsignedString(size) + " entries");
    }
    long mostEntries = lengths.maxRemainingValues();
    if (size > mostEntries || size > Integer.MAX_VALUE - 8) {
      throw new CorruptStreamException(
          lengths.input().name(),
          "a dictionary of " + size + " entries, more lengths than the stream can hold");
    }
    int[] offsets = new int[size + 1];
    long bytes = lengths.decodeLengths(offsets, 1, size);
    long mostBytes = Math.min(dictionaryData.maxRemainingBytes(), Integer.MAX_VALUE - 8);
    if (bytes > mostBytes) {
      throw new CorruptStreamException(
          dictionaryData.name(),
          "dictionary entries of "
              + bytes
              + " bytes in all, more than the stream can hold ("
              + mostBytes
              + ")");
    }
    for (int i = 1; i <= size; i++) {
      offsets[i] += offsets[i - 1];
    }
    byte[] data = new byte[(int) bytes];
    dictionaryData.readFully(data, 0, data.length);
    return new StringDictionary(data, offsets, size);
  }

  /** The length of entry {@code id}. */
  public int length(int id) {
    return offsets[id + 1] - offsets[id];
  }
}
