package dev.prefetch.arrow;

import dev.prefetch.arrow.internal.ColumnPlan;
import dev.prefetch.arrow.internal.VectorFiller;
import dev.prefetch.batch.RecordBatch;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Converts batches of one schema into one reusable {@link VectorSchemaRoot}.
 *
 * <p>Lifecycle: each {@link #convert} replaces the root's buffers with the batch's values (the
 * buffers of the previous batch are released unless someone else, such as a C Data consumer, still
 * holds a reference to them); the batch itself is not changed and may be released by the caller
 * once {@code convert} returns. {@link #close()} closes the root and releases its memory. All
 * memory is allocated from, and accounted to, the allocator given at creation. One thread at a
 * time.
 */
public final class BatchConverter implements AutoCloseable {

  private final ArrowMapping mapping;
  private final VectorSchemaRoot root;
  private final VectorFiller filler;

  BatchConverter(ArrowMapping mapping, VectorSchemaRoot root, BufferAllocator allocator) {
    this.mapping = Objects.requireNonNull(mapping, "mapping is null");
    this.root = Objects.requireNonNull(root, "root is null");
    this.filler = new VectorFiller(allocator);
  }

  /** The root every {@link #convert} fills. */
  public VectorSchemaRoot root() {
    return root;
  }

  /** The mapping of this converter's columns. */
  public ArrowMapping mapping() {
    return mapping;
  }

  /**
   * Fills the root with {@code batch}'s rows and returns it.
   *
   * @throws IllegalArgumentException when the batch's schema is not the mapping's
   */
  public VectorSchemaRoot convert(RecordBatch batch) {
    fill(root, mapping, filler, batch);
    return root;
  }

  static void fill(
      VectorSchemaRoot root, ArrowMapping mapping, VectorFiller filler, RecordBatch batch) {
    if (batch.schema() != mapping.schema() && !batch.schema().equals(mapping.schema())) {
      throw new IllegalArgumentException(
          "batch of "
              + batch.file()
              + " has schema "
              + batch.schema()
              + ", not the converter's "
              + mapping.schema());
    }
    List<ColumnPlan> plans = mapping.plans();
    List<FieldVector> vectors = root.getFieldVectors();
    int rows = batch.rowCount();
    for (int i = 0; i < plans.size(); i++) {
      filler.fill(vectors.get(i), plans.get(i), batch.column(i), rows, null);
    }
    root.setRowCount(rows);
  }

  @Override
  public void close() {
    root.close();
  }
}
