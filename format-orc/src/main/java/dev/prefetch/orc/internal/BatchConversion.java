package dev.prefetch.orc.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadException;
import dev.prefetch.batch.BatchRecycler;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.spi.ColumnArrayPools;
import dev.prefetch.spi.VectorArrayPool;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Turns runs of a range reader's reused orc-core batch into the project's batches: each projected
 * column's conversion (chosen once from its type, {@link VectorConverter#conversion}) and its pool
 * of released arrays ({@link VectorArrayPool}), which the batches' recycler fills again.
 *
 * <p>Threads: {@link #convert} and {@link #release} on the range reader's thread; the recycler on
 * the consumer's, which only adds to the pools (they are thread-safe).
 */
final class BatchConversion {

  private final DataFile file;
  private final Projection projection;
  private final VectorConverter converter = new VectorConverter();
  private final VectorConverter.Conversion[] conversions;

  /** The arrays of each projected column's released vectors, for its next batches. */
  private final VectorArrayPool[] arrays;

  private final BatchRecycler recycler = this::recycle;

  /**
   * @param pools the read's pools of its output columns, which this conversion's batches take their
   *     arrays from and give them back to
   */
  BatchConversion(DataFile file, Projection projection, ColumnArrayPools pools) {
    this.file = file;
    this.projection = projection;
    this.conversions = new VectorConverter.Conversion[projection.columnCount()];
    this.arrays = new VectorArrayPool[projection.columnCount()];
    for (int c = 0; c < arrays.length; c++) {
      conversions[c] =
          converter.conversion(projection.type(c), projection.schema().field(c).type());
      arrays[c] = pools.column(c);
    }
  }

  /**
   * The rows {@code [start, start + count)} of {@code batch} as a batch starting at {@code
   * firstRow}.
   */
  RecordBatch convert(VectorizedRowBatch batch, long firstRow, int start, int count)
      throws ReadException {
    List<ColumnVector> columns = new ArrayList<>(conversions.length);
    for (int c = 0; c < conversions.length; c++) {
      try {
        columns.add(
            conversions[c].convert(column(batch, projection.path(c)), start, count, arrays[c]));
      } catch (ArithmeticException e) {
        // a value beyond what its type holds (a timestamp outside 1677..2262): the file may be
        // valid, so not a corrupt file; the message says what does not fit
        throw new ReadException(
            file,
            "column '"
                + projection.schema().field(c).name()
                + "', rows "
                + firstRow
                + ".."
                + (firstRow + count)
                + ": "
                + e.getMessage(),
            null);
      }
    }
    return new RecordBatch(file, firstRow, count, projection.schema(), columns, recycler);
  }

  /**
   * Gives orc-core's vectors other arrays for those the converted batches took; called once all
   * runs of a batch are converted, before orc-core fills the batch again.
   */
  void release() {
    converter.release();
  }

  /** Takes back a released batch's arrays; on the consumer's thread. */
  private void recycle(List<ColumnVector> vectors) {
    for (int c = 0; c < vectors.size(); c++) {
      arrays[c].recycle(vectors.get(c));
    }
  }

  /**
   * The vector at {@code path}. A nested field is null where a struct on its path is null: orc-core
   * marks that in the field's own mask, except when a struct is null in every row of the batch,
   * where it leaves the fields unread; such a field is marked all-null here (the batch is ours).
   */
  static org.apache.hadoop.hive.ql.exec.vector.ColumnVector column(
      VectorizedRowBatch batch, int[] path) {
    org.apache.hadoop.hive.ql.exec.vector.ColumnVector vector = batch.cols[path[0]];
    boolean allNull = false;
    for (int i = 1; i < path.length; i++) {
      allNull |= vector.isRepeating && !vector.noNulls && vector.isNull[0];
      vector = ((StructColumnVector) vector).fields[path[i]];
    }
    if (allNull) {
      vector.noNulls = false;
      vector.isRepeating = true;
      vector.isNull[0] = true;
    }
    return vector;
  }
}
