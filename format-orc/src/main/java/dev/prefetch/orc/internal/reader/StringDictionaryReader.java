package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/**
 * A dictionary-encoded {@code string}, {@code char} or {@code varchar} column: ids into the
 * stripe's dictionary, which every range reader of the stripe shares (decoded once, by the first,
 * {@link ColumnReaders#dictionary}). Into {@link DictionaryVector}s over that one dictionary when
 * the read asks for dictionary vectors of the column, so the values' bytes are never copied; else
 * into {@link BinaryVector}s, each value's bytes copied from the dictionary.
 */
final class StringDictionaryReader extends ColumnReader {

  private final DataType type;
  private final IntegerDecoder ids;
  private final BinaryVector dictionary;
  private final boolean dictionaryVectors;
  private final long maxBatchBytes;
  private int[] dense = new int[0];

  StringDictionaryReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      boolean rleV2,
      BinaryVector dictionary,
      boolean dictionaryVectors,
      long maxBatchBytes,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.ids = IntegerDecoder.create(owned(data), false, rleV2);
    this.dictionary = dictionary;
    this.dictionaryVectors = dictionaryVectors;
    this.maxBatchBytes = maxBatchBytes;
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    int size = dictionary.size();
    if (dictionaryVectors) {
      int[] values = pool.values(int[].class, rows);
      ids.decodeIds(values, 0, count, size);
      if (nulls != null) {
        Spread.ints(values, nulls, rows, count);
      }
      return new DictionaryVector(rows, values, dictionary, nulls);
    }
    if (dense.length < count) {
      dense = new int[Math.max(count, dense.length * 2)];
    }
    int[] id = dense;
    ids.decodeIds(id, 0, count, size);
    int[] entries = dictionary.offsets();
    long total = 0;
    for (int j = 0; j < count; j++) {
      total += entries[id[j] + 1] - entries[id[j]];
    }
    Lengths.check(total, count, ReadSettings.MAX_ARRAY_LENGTH, maxBatchBytes, "bytes", where);
    byte[] data = pool.binaryData((int) total);
    int[] offsets = pool.binaryOffsets(rows + 1);
    copy(dictionary.data(), entries, id, nulls, rows, data, offsets);
    return new BinaryVector(type, rows, data, offsets, nulls);
  }

  /**
   * Copies each row's entry into {@code data}, back to back. Entries are mostly short, where a
   * plain loop beats {@link System#arraycopy}'s call; long ones go through it.
   */
  private static void copy(
      byte[] source,
      int[] entries,
      int[] id,
      boolean[] nulls,
      int rows,
      byte[] data,
      int[] offsets) {
    int at = 0;
    int j = 0;
    offsets[0] = 0;
    for (int i = 0; i < rows; i++) {
      if (nulls == null || !nulls[i]) {
        int entry = id[j++];
        int start = entries[entry];
        int length = entries[entry + 1] - start;
        if (length <= 16) {
          for (int k = 0; k < length; k++) {
            data[at + k] = source[start + k];
          }
        } else {
          System.arraycopy(source, start, data, at, length);
        }
        at += length;
      }
      offsets[i + 1] = at;
    }
  }

  @Override
  protected void skipValues(long values) throws IOException {
    ids.skip(values);
  }

  @Override
  protected void seekValues(IndexPositions positions) throws IOException {
    ids.seek(positions);
  }
}
