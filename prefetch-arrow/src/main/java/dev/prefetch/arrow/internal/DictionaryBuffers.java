package dev.prefetch.arrow.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DictionaryVector;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Writes the buffers of {@link DictionaryVector}s, through the {@link BufferWriter} whose buffers
 * and scratch arrays it uses. Into a dictionary-encoded field ({@code DICTIONARY}) go a vector's
 * ids as int32 indices, with 0 in a null row's slot and every other id checked against the
 * dictionary's size, since a native consumer would read out of bounds; a plain vector there gets
 * the indices 0 to {@code count - 1}, its values being the dictionary of that batch. Into a plain
 * field a dictionary vector is expanded: its values are gathered into a scratch array and copied in
 * bulk, with no intermediate vector. Not thread-safe.
 */
final class DictionaryBuffers {

  /** Largest array a JVM reliably allocates, and below Arrow's int32 offsets' limit. */
  private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  private final BufferWriter writer;

  DictionaryBuffers(BufferWriter writer) {
    this.writer = writer;
  }

  /** A dictionary vector's ids as int32 indices: 0 for a null row, the others checked. */
  void ids(DictionaryVector d, int count, List<ArrowBuf> out) {
    int[] ids = d.ids();
    boolean[] nulls = d.nullMask();
    int size = d.dictionary().size();
    int[] indices = writer.ints(count);
    for (int i = 0; i < count; i++) {
      if (nulls != null && nulls[i]) {
        indices[i] = 0;
      } else {
        indices[i] = checkedId(ids[i], size, i);
      }
    }
    BufferWriter.view(writer.add(out, 4L * count)).asIntBuffer().put(indices, 0, count);
  }

  /** The indices 0 to {@code count - 1}: row {@code i} is entry {@code i} of its own dictionary. */
  void identity(int count, List<ArrowBuf> out) {
    int[] indices = writer.ints(count);
    for (int i = 0; i < count; i++) {
      indices[i] = i;
    }
    BufferWriter.view(writer.add(out, 4L * count)).asIntBuffer().put(indices, 0, count);
  }

  private static int checkedId(int id, int size, int row) {
    if (id < 0 || id >= size) {
      throw new IllegalStateException(
          "dictionary id "
              + id
              + " at row "
              + row
              + " is outside the dictionary of "
              + size
              + " values");
    }
    return id;
  }

  /** A dictionary vector's rows as offsets and bytes, the values gathered from the dictionary. */
  void expand(DictionaryVector d, int count, List<ArrowBuf> out) {
    int[] ids = d.ids();
    boolean[] nulls = d.nullMask();
    BinaryVector dictionary = d.dictionary();
    int[] entries = dictionary.offsets();
    byte[] source = dictionary.data();
    int size = dictionary.size();
    int[] offsets = writer.ints(count + 1);
    long total = 0;
    offsets[0] = 0;
    for (int i = 0; i < count; i++) {
      if (nulls == null || !nulls[i]) {
        int id = checkedId(ids[i], size, i);
        total += entries[id + 1] - entries[id];
        if (total > MAX_ARRAY_LENGTH) {
          throw new IllegalStateException(
              "the " + count + " values take more than " + MAX_ARRAY_LENGTH + " bytes");
        }
      }
      offsets[i + 1] = (int) total;
    }
    BufferWriter.view(writer.add(out, 4L * (count + 1))).asIntBuffer().put(offsets, 0, count + 1);
    int bytes = (int) total;
    byte[] gathered = writer.bytes(bytes);
    for (int i = 0; i < count; i++) {
      int length = offsets[i + 1] - offsets[i];
      if (length > 0) {
        System.arraycopy(source, entries[ids[i]], gathered, offsets[i], length);
      }
    }
    writer.add(out, bytes).setBytes(0, gathered, 0, bytes);
  }

  /** A dictionary vector's rows as fixed-size values, a null's slot zeros. */
  void expandFixed(DictionaryVector d, int count, int width, List<ArrowBuf> out) {
    int[] ids = d.ids();
    boolean[] nulls = d.nullMask();
    BinaryVector dictionary = d.dictionary();
    int[] entries = dictionary.offsets();
    byte[] source = dictionary.data();
    int size = dictionary.size();
    int bytes = Math.multiplyExact(count, width);
    byte[] gathered = writer.bytes(bytes);
    for (int i = 0, at = 0; i < count; i++, at += width) {
      if (nulls != null && nulls[i]) {
        Arrays.fill(gathered, at, at + width, (byte) 0);
        continue;
      }
      int id = checkedId(ids[i], size, i);
      int length = entries[id + 1] - entries[id];
      if (length != width) {
        throw new IllegalStateException(
            "fixed binary dictionary entry " + id + " has " + length + " bytes, not " + width);
      }
      System.arraycopy(source, entries[id], gathered, at, width);
    }
    writer.add(out, bytes).setBytes(0, gathered, 0, bytes);
  }
}
