package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/**
 * Dictionary-encoded variable-length values (STRING, BINARY, FIXED_BINARY): row {@code i} is entry
 * {@code ids[i]} of a {@link BinaryVector} of distinct values, the dictionary.
 *
 * <p>A format hands these out instead of a {@link BinaryVector} where the file stores a column
 * dictionary-encoded and the reader's options ask for it (for Parquet, {@code
 * parquet.read.dictionary-vectors}): the values' bytes are then not copied once per row, and a
 * consumer that groups, filters or joins on the column can work on the ids.
 *
 * <p>Sharing: every batch of one column chunk (a Parquet row group's column) carries the same
 * dictionary instance, so {@code a.dictionary() == b.dictionary()} tells a consumer it may keep
 * what it derived from the dictionary (an Arrow dictionary, a hash table of its entries) for the
 * next batch. The dictionary is read-only and outlives the batch: releasing the batch releases only
 * the ids and the null mask. For the same reason {@link #sizeInBytes()} counts only those; the
 * dictionary is held once by the reader of its chunk.
 *
 * <p>Ids: the id of every row that is not null lies in {@code 0 .. dictionary().size() - 1}; the id
 * slot of a null row holds an unspecified value. Reading through the vector: {@link #id(int)} and
 * the dictionary's accessors, or {@link #getString(int)} and {@link #getBytes(int)}; {@link
 * #materialize()} builds the plain {@link BinaryVector} of the same rows.
 */
public final class DictionaryVector extends ColumnVector implements BinaryValues {

  private static final Set<DataType.Kind> KINDS =
      EnumSet.of(DataType.Kind.STRING, DataType.Kind.BINARY, DataType.Kind.FIXED_BINARY);

  /** Largest array a JVM reliably allocates. */
  private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  private final int[] ids;
  private final BinaryVector dictionary;

  /**
   * @param size number of values
   * @param ids at least {@code size} dictionary ids; ownership passes to the vector
   * @param dictionary the distinct values, shared with other batches; its type is this vector's
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public DictionaryVector(int size, int[] ids, BinaryVector dictionary, boolean[] nulls) {
    super(dictionary.type(), KINDS, size, nulls);
    checkLength("ids", ids.length, size);
    if (dictionary.mayHaveNulls()) {
      throw new IllegalArgumentException("a dictionary holds no nulls");
    }
    this.ids = ids;
    this.dictionary = dictionary;
  }

  /** The dictionary ids, one per row (only the first {@link #size()} are values). Do not modify. */
  public int[] ids() {
    checkReadable();
    return ids;
  }

  /** Row {@code index}'s dictionary id (unspecified for a null row). */
  public int id(int index) {
    checkReadable();
    return ids[index];
  }

  /** The distinct values the ids point into, shared by the batches of one column chunk. */
  public BinaryVector dictionary() {
    checkReadable();
    return dictionary;
  }

  @Override
  public byte[] getBytes(int index) {
    return dictionary.getBytes(id(index));
  }

  @Override
  public String getString(int index) {
    return dictionary.getString(id(index));
  }

  /** A String for STRING values, a {@code byte[]} otherwise; null for a null. */
  @Override
  public Object getObject(int index) {
    return isNull(index) ? null : dictionary.getObject(id(index));
  }

  /**
   * The same rows as a plain {@link BinaryVector} with their own copy of each value's bytes (a null
   * row gets an empty span). New arrays every call.
   *
   * @throws IllegalStateException when the rows' bytes together exceed the largest Java array
   */
  public BinaryVector materialize() {
    checkReadable();
    int size = size();
    boolean[] nulls = nullMask();
    int[] entries = dictionary.offsets;
    long total = 0;
    for (int i = 0; i < size; i++) {
      if (nulls == null || !nulls[i]) {
        total += entries[ids[i] + 1] - entries[ids[i]];
      }
    }
    if (total > MAX_ARRAY_LENGTH) {
      throw new IllegalStateException(
          "the " + size + " values take " + total + " bytes, more than one array holds");
    }
    byte[] data = new byte[(int) total];
    int[] offsets = new int[size + 1];
    byte[] source = dictionary.data();
    int at = 0;
    for (int i = 0; i < size; i++) {
      if (nulls == null || !nulls[i]) {
        int start = entries[ids[i]];
        int length = entries[ids[i] + 1] - start;
        System.arraycopy(source, start, data, at, length);
        at += length;
      }
      offsets[i + 1] = at;
    }
    return new BinaryVector(type(), size, data, offsets, nulls == null ? null : nulls.clone());
  }

  /** The ids and the null mask; the shared dictionary is not counted (see the class doc). */
  @Override
  public long sizeInBytes() {
    return 4L * ids.length + nullMaskBytes();
  }
}
