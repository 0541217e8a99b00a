package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.IntVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import org.apache.hadoop.hive.common.type.CalendarUtils;

/**
 * An {@code int} or {@code date} column: signed integer RLE in DATA, each value narrowed to 32 bits
 * as orc-core narrows it, into an {@link IntVector}. Dates of a file written in the proleptic
 * Gregorian calendar move to the hybrid one before the switch of 1582 when the read asks for it
 * ({@link ReadSettings#toHybridCalendar()}), as orc-core's reader moves them.
 */
final class IntReader extends ColumnReader {

  private final DataType type;
  private final IntegerDecoder data;
  private final boolean toHybrid;

  IntReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      boolean rleV2,
      boolean toHybrid,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.data = IntegerDecoder.create(owned(data), true, rleV2);
    this.toHybrid = toHybrid;
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    int[] values = pool.values(int[].class, rows);
    data.decode(values, 0, count);
    if (toHybrid) {
      for (int i = 0; i < count; i++) {
        if (values[i] < CalendarUtils.SWITCHOVER_DAYS) {
          values[i] = CalendarUtils.convertDateToHybrid(values[i]);
        }
      }
    }
    if (nulls != null) {
      Spread.ints(values, nulls, rows, count);
    }
    return new IntVector(type, rows, values, nulls);
  }

  @Override
  protected void skipValues(long values) throws IOException {
    data.skip(values);
  }

  @Override
  protected void seekValues(IndexPositions positions) throws IOException {
    data.seek(positions);
  }
}
