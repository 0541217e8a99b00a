package dev.prefetch.parquet.internal.bulk;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Variable-length values appended back to back into one growing byte array with offsets: the
 * layout of a {@link dev.prefetch.batch.BinaryVector}, built without a per-value object.
 * Confined to one decoding thread.
 */
public final class BinaryBuilder {

  /** Values up to this long are copied as two words, past their end (see {@link #append}). */
  private static final int SHORT_VALUE = 16;
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] data;
  private int[] offsets;
  private int size;

  /** A builder whose arrays come from {@code arrays}, sized for the expected values and bytes. */
  public BinaryBuilder(ColumnArrays arrays, int expectedValues, int expectedBytes) {
    this.data = arrays.binaryData(Math.max(16, expectedBytes));
    this.offsets = arrays.binaryOffsets(Math.max(1, expectedValues) + 1);
    this.offsets[0] = 0; // a recycled array holds old offsets
  }

  public int size() {
    return size;
  }

  /** The bytes (ownership passes to the caller with {@link #offsets()}; the builder is then spent). */
  public byte[] data() {
    return data;
  }

  public int[] offsets() {
    return offsets;
  }

  void append(byte[] source, int offset, int length) {
    int start = offsets[size];
    if (length <= SHORT_VALUE && source.length - offset >= SHORT_VALUE) {
      // Short values (most strings) as two 8-byte moves instead of an arraycopy call: the bytes
      // copied past the value's end land where the next value (or nothing) goes.
      ensureBytes(start + SHORT_VALUE);
      LONG.set(data, start, (long) LONG.get(source, offset));
      LONG.set(data, start + 8, (long) LONG.get(source, offset + 8));
    } else {
      ensureBytes(start + length);
      System.arraycopy(source, offset, data, start, length);
    }
    ensureValues(size + 1);
    offsets[++size] = start + length;
  }

  /** Appends {@code count} empty values (the slots of nulls). */
  void appendEmpty(int count) {
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
      data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 8,
          Math.max((long) needed, 2L * data.length)));
    }
  }

  private void ensureValues(int values) {
    if (values + 1 > offsets.length) {
      offsets = Arrays.copyOf(offsets, Math.max(values + 1, 2 * offsets.length));
    }
  }
}
