package dev.prefetch.bench.trino;

import dev.prefetch.testkit.scan.ValueSums;
import dev.prefetch.testkit.baseline.ValueSink;
import io.airlift.slice.Slice;
import io.trino.spi.block.Bitmap;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.Fixed12Block;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import java.util.Optional;

/**
 * What the Trino contenders do with the blocks their readers return, in the checksum's canonical
 * form ({@link ValueSums} says which): integers, dates, short timestamps and short decimals as
 * their long value, REAL and DOUBLE as double bits, VARCHAR and VARBINARY as bytes, a TIMESTAMP(9)
 * as nanoseconds since the epoch.
 *
 * <p>{@link #addSums} is the timed consumer, the least work per value: one type test per block,
 * then a loop over its raw arrays with a local sum, as {@link ValueSums} loops over our vectors;
 * a dictionary block hashes each entry once and adds one hash per row, a run-length block adds
 * its value times its rows. A validity bitmap becomes a null mask once per block ({@link
 * Scratch}). {@link #feed} is the check: every value, one by one, through Trino's own accessors.
 *
 * <p>Flat columns of the benchmark tables' types only; any other fails by name.
 */
public final class TrinoBlocks {

  private TrinoBlocks() {}

  /**
   * A reader's reusable state: the null mask of the block at hand, and per column the items of the
   * last dictionary seen (a column's dictionary blocks share one dictionary within a row group or
   * stripe).
   */
  public static final class Scratch {
    private boolean[] nulls = new boolean[0];
    private final ValueBlock[] dictionaries;
    private final long[][] items;
    private final boolean[][] nullEntries;

    public Scratch(int columns) {
      dictionaries = new ValueBlock[columns];
      items = new long[columns][];
      nullEntries = new boolean[columns][];
    }

    /** The null mask of {@code block} (true = null), or null when it has no nulls. */
    boolean[] nulls(ValueBlock block, int count) {
      Optional<Bitmap> validity = block.getValidityBitmap();
      if (validity.isEmpty()) {
        return null;
      }
      long[] words = validity.get().getRawWords();
      int offset = validity.get().getRawBitOffset();
      if (nulls.length < count) {
        nulls = new boolean[count];
      }
      boolean[] out = nulls;
      for (int i = 0; i < count; i++) {
        int bit = offset + i;
        out[i] = (words[bit >>> 6] & (1L << bit)) == 0;
      }
      return out;
    }

    /** Each entry's item and null flag of a column's dictionary, computed once per dictionary. */
    private void entries(int column, ValueBlock dictionary, Type type) {
      if (dictionaries[column] == dictionary) {
        return;
      }
      int entries = dictionary.getPositionCount();
      long[] entryItems = new long[entries];
      boolean[] entryNulls = new boolean[entries];
      feed(
          dictionary,
          type,
          0,
          new ValueSink() {
            private int entry;

            @Override
            public void addNull(int c) {
              entryNulls[entry++] = true;
            }

            @Override
            public void addLong(int c, long value) {
              entryItems[entry++] = value;
            }

            @Override
            public void addDouble(int c, double value) {
              entryItems[entry++] = ValueSums.doubleItem(value);
            }

            @Override
            public void addBytes(int c, byte[] data, int offset, int length) {
              entryItems[entry++] = ValueSums.bytesHash(data, offset, length);
            }
          });
      dictionaries[column] = dictionary;
      items[column] = entryItems;
      nullEntries[column] = entryNulls;
    }
  }

  /** Adds every value of {@code block}, a column of Trino type {@code type}, to the sums. */
  public static void addSums(
      Block block, Type type, int column, ValueSums sums, Scratch scratch) {
    int count = block.getPositionCount();
    if (block instanceof DictionaryBlock dictionary) {
      addDictionary(dictionary, type, column, sums, scratch);
      return;
    }
    if (block instanceof RunLengthEncodedBlock rle) {
      // one value stands for every row
      ValueSums one = new ValueSums(1);
      feed(rle.getValue(), type, 0, one);
      sums.addPartial(column, one.sum(0) * count, one.nulls(0) * count);
      return;
    }
    ValueBlock values = (ValueBlock) block;
    boolean[] nulls = scratch.nulls(values, count);
    switch (values) {
      case LongArrayBlock b when type instanceof DoubleType -> {
        long[] raw = b.getRawValues();
        int offset = b.getRawValuesOffset();
        long sum = 0;
        long none = 0;
        for (int i = 0; i < count; i++) {
          boolean isNull = nulls != null && nulls[i];
          sum += isNull ? 0 : ValueSums.doubleItem(Double.longBitsToDouble(raw[offset + i]));
          none += isNull ? 1 : 0;
        }
        sums.addPartial(column, sum, none);
      }
      case LongArrayBlock b ->
          sums.addLongs(column, b.getRawValues(), b.getRawValuesOffset(), count, nulls, 0);
      case IntArrayBlock b when type instanceof RealType ->
          sums.addFloatBits(column, b.getRawValues(), b.getRawValuesOffset(), count, nulls, 0);
      case IntArrayBlock b ->
          sums.addInts(column, b.getRawValues(), b.getRawValuesOffset(), count, nulls, 0);
      case ByteArrayBlock b ->
          sums.addBytesAsIntegers(
              column, b.getRawValues(), b.getRawValuesOffset(), count, nulls, 0);
      case ShortArrayBlock b -> {
        long sum = 0;
        long none = 0;
        for (int i = 0; i < count; i++) {
          boolean isNull = nulls != null && nulls[i];
          sum += isNull ? 0 : b.getShort(i);
          none += isNull ? 1 : 0;
        }
        sums.addPartial(column, sum, none);
      }
      case VariableWidthBlock b -> addStrings(b, column, count, nulls, sums);
      case Fixed12Block b -> {
        long sum = 0;
        long none = 0;
        for (int i = 0; i < count; i++) {
          boolean isNull = nulls != null && nulls[i];
          sum += isNull ? 0 : nanos(b, i);
          none += isNull ? 1 : 0;
        }
        sums.addPartial(column, sum, none);
      }
      default ->
          throw new IllegalArgumentException(
              "a " + type + " column in " + block.getClass().getSimpleName()
                  + " is not part of the benchmark tables");
    }
  }

  /** Strings hashed where they lie in the block's slice. */
  private static void addStrings(
      VariableWidthBlock block, int column, int count, boolean[] nulls, ValueSums sums) {
    Slice slice = block.getRawSlice();
    byte[] data = slice.byteArray();
    int base = slice.byteArrayOffset();
    long sum = 0;
    long none = 0;
    for (int i = 0; i < count; i++) {
      if (nulls != null && nulls[i]) {
        none++;
        continue;
      }
      sum += ValueSums.bytesHash(data, base + block.getRawSliceOffset(i), block.getSliceLength(i));
    }
    sums.addPartial(column, sum, none);
  }

  /** A dictionary block: each entry's item once per dictionary, then one lookup per row. */
  private static void addDictionary(
      DictionaryBlock block, Type type, int column, ValueSums sums, Scratch scratch) {
    scratch.entries(column, block.getDictionary(), type);
    long[] items = scratch.items[column];
    boolean[] nullEntry = scratch.nullEntries[column];
    int[] ids = block.getRawIds();
    int offset = block.getRawIdsOffset();
    int count = block.getPositionCount();
    long sum = 0;
    long none = 0;
    for (int i = 0; i < count; i++) {
      int id = ids[offset + i];
      sum += items[id];
      none += nullEntry[id] ? 1 : 0;
    }
    sums.addPartial(column, sum, none);
  }

  /** A TIMESTAMP(9)'s nanoseconds since the epoch: micros times 1000 plus the picos' nanos. */
  private static long nanos(Fixed12Block block, int position) {
    return block.getFixed12First(position) * 1000 + block.getFixed12Second(position) / 1000;
  }

  /** Feeds every value of {@code block} to {@code sink}, one by one, in row order. */
  public static void feed(Block block, Type type, int column, ValueSink sink) {
    for (int i = 0; i < block.getPositionCount(); i++) {
      if (block.isNull(i)) {
        sink.addNull(column);
        continue;
      }
      switch (type) {
        case BigintType t -> sink.addLong(column, t.getLong(block, i));
        case IntegerType t -> sink.addLong(column, t.getInt(block, i));
        case SmallintType t -> sink.addLong(column, t.getShort(block, i));
        case TinyintType t -> sink.addLong(column, t.getByte(block, i));
        case DateType t -> sink.addLong(column, t.getInt(block, i));
        case BooleanType t -> sink.addLong(column, t.getBoolean(block, i) ? 1 : 0);
        case DoubleType t -> sink.addDouble(column, t.getDouble(block, i));
        case RealType t -> sink.addDouble(column, t.getFloat(block, i));
        case DecimalType t when t.isShort() -> sink.addLong(column, t.getLong(block, i));
        case TimestampType t when t.isShort() -> sink.addLong(column, t.getLong(block, i));
        case TimestampType t -> {
          ValueBlock values = block.getUnderlyingValueBlock();
          sink.addLong(column, nanos((Fixed12Block) values, block.getUnderlyingValuePosition(i)));
        }
        case VarcharType t -> {
          Slice s = t.getSlice(block, i);
          sink.addBytes(column, s.byteArray(), s.byteArrayOffset(), s.length());
        }
        case VarbinaryType t -> {
          Slice s = t.getSlice(block, i);
          sink.addBytes(column, s.byteArray(), s.byteArrayOffset(), s.length());
        }
        default ->
            throw new IllegalArgumentException(
                "a " + type + " column is not part of the benchmark tables");
      }
    }
  }
}
