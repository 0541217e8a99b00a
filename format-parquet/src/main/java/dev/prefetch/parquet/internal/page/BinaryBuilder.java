package dev.prefetch.parquet.internal.page;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Variable-length values appended back to back into one growing byte array with offsets: the layout
 * of a {@link dev.prefetch.batch.BinaryVector}, built without a per-value object. Confined to one
 * decoding thread.
 */
public final class BinaryBuilder {

  /** Values up to this long are copied as whole words, past their end (see {@link #copy}). */
  private static final int SHORT_VALUE = 32;

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] data;
  private int[] offsets;
  private int size;

  /**
   * A builder over the caller's arrays (recycled ones may hold old contents): {@code data} of any
   * length, {@code offsets} of at least one entry. Both grow as values are appended.
   */
  public BinaryBuilder(byte[] data, int[] offsets) {
    if (offsets.length < 1) {
      throw new IllegalArgumentException("offsets need at least one entry");
    }
    this.data = data;
    this.offsets = offsets;
    this.offsets[0] = 0;
  }

  /** A builder over new arrays sized for the expected values and bytes. */
  public BinaryBuilder(int expectedValues, int expectedBytes) {
    this(new byte[Math.max(16, expectedBytes)], new int[Math.max(1, expectedValues) + 1]);
  }

  public int size() {
    return size;
  }

  /**
   * The bytes (ownership passes to the caller with {@link #offsets()}; the builder is then spent).
   */
  public byte[] data() {
    return data;
  }

  public int[] offsets() {
    return offsets;
  }

  /** Appends one value: {@code length} bytes of {@code source} from {@code offset}. */
  public void append(byte[] source, int offset, int length) {
    int start = offsets[size];
    ensureBytes(start + Math.max(length, SHORT_VALUE));
    copy(source, offset, start, length);
    ensureValues(size + 1);
    offsets[++size] = start + length;
  }

  /**
   * Appends {@code count} PLAIN byte arrays (each a 4-byte little-endian length, then its bytes)
   * from {@code source} at {@code pos}, checking every length against {@code end}, and returns the
   * position after the last one. Two passes: the lengths first, into the offsets, so that the
   * arrays grow once and the copies run without a check each.
   *
   * @throws IllegalStateException when a length or a value reaches past {@code end}
   */
  int appendLengthPrefixed(byte[] source, int pos, int end, int count) {
    ensureValues(size + count);
    int[] offs = offsets;
    int first = size;
    int p = pos;
    int at = offs[first];
    for (int i = 1; i <= count; i++) {
      int length = LittleEndian.length(source, p, end, "PLAIN byte array", null);
      p += 4 + length;
      at += length;
      if (at < 0) {
        throw new IllegalStateException("binary values exceed 2 GiB in one batch");
      }
      offs[first + i] = at;
    }
    ensureBytes(at + SHORT_VALUE);
    p = pos;
    for (int i = first; i < first + count; i++) {
      int start = offs[i];
      int length = offs[i + 1] - start;
      copy(source, p + 4, start, length);
      p += 4 + length;
    }
    size += count;
    return p;
  }

  /**
   * Appends {@code count} dictionary entries: entry {@code ids[i]} is {@code bytes[entryOffsets[id]
   * .. entryOffsets[id + 1])}. The ids must be in range.
   */
  void appendEntries(byte[] bytes, int[] entryOffsets, int[] ids, int count) {
    ensureValues(size + count);
    int[] offs = offsets;
    int first = size;
    long at = offs[first];
    for (int i = 0; i < count; i++) {
      int id = ids[i];
      at += entryOffsets[id + 1] - entryOffsets[id];
      offs[first + 1 + i] = (int) at;
    }
    if (at + SHORT_VALUE > Integer.MAX_VALUE) {
      throw new IllegalStateException("binary values exceed 2 GiB in one batch");
    }
    ensureBytes((int) at + SHORT_VALUE);
    for (int i = 0; i < count; i++) {
      int start = offs[first + i];
      int id = ids[i];
      copy(bytes, entryOffsets[id], start, offs[first + 1 + i] - start);
    }
    size += count;
  }

  /**
   * Copies a value to {@code data[start]}, which has room for {@code SHORT_VALUE} bytes or the
   * value, whichever is longer. Short values (most strings) move as four 8-byte words instead of an
   * arraycopy call: the bytes copied past the value's end land where the next value goes.
   */
  private void copy(byte[] source, int offset, int start, int length) {
    if (length <= SHORT_VALUE && source.length - offset >= SHORT_VALUE) {
      byte[] d = data;
      LONG.set(d, start, (long) LONG.get(source, offset));
      LONG.set(d, start + 8, (long) LONG.get(source, offset + 8));
      if (length > 16) {
        LONG.set(d, start + 16, (long) LONG.get(source, offset + 16));
        LONG.set(d, start + 24, (long) LONG.get(source, offset + 24));
      }
    } else {
      System.arraycopy(source, offset, data, start, length);
    }
  }

  /**
   * Turns the last {@code defined} values, appended densely, into {@code count} values: the defined
   * ones at the positions {@code nulls[nullsAt..nullsAt+count)} does not mark, an empty value at
   * each marked one. No byte moves: only the offsets are rewritten, from the end, where each row's
   * end is the end of the last defined value at or before it.
   */
  public void spread(int count, int defined, boolean[] nulls, int nullsAt) {
    int first = size - defined; // offsets index of the start of the run's first row
    ensureValues(first + count);
    int[] offs = offsets;
    int source = size; // offsets index of the end of the last defined value not yet placed
    for (int r = count - 1; r >= 0; r--) {
      offs[first + 1 + r] = offs[source];
      if (!nulls[nullsAt + r]) {
        source--;
      }
    }
    size = first + count;
  }

  /** Appends {@code count} empty values (the slots of nulls). */
  public void appendEmpty(int count) {
    ensureValues(size + count);
    int at = offsets[size];
    for (int i = 0; i < count; i++) {
      offsets[++size] = at;
    }
  }

  private void ensureBytes(int needed) {
    if (needed < 0) {
      throw new IllegalStateException("binary values exceed 2 GiB in one batch");
    }
    if (needed > data.length) {
      data =
          Arrays.copyOf(
              data,
              (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) needed, 2L * data.length)));
    }
  }

  private void ensureValues(int values) {
    if (values + 1 > offsets.length) {
      offsets = Arrays.copyOf(offsets, Math.max(values + 1, 2 * offsets.length));
    }
  }
}
