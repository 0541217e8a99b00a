package dev.prefetch.arrow;

import dev.prefetch.batch.RecordBatch;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Batches as Arrow {@link VectorSchemaRoot}s.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *      BatchReader reader = Readers.open(path, options, context);
 *      BatchConverter converter = ArrowBatches.converter(
 *          ArrowMapping.of(reader.schema(), path, conf), allocator)) {
 *   for (RecordBatch batch; (batch = reader.next()) != null; ) {
 *     VectorSchemaRoot root = converter.convert(batch);
 *     batch.release();
 *     ... // read root until the next convert
 *   }
 * }
 * }</pre>
 *
 * <p>Every value is copied once into memory of the given allocator: validity bitmaps from the null
 * masks, offsets and values in bulk. Our batches hold no dictionary-encoded vectors, so every
 * column is exported expanded.
 */
public final class ArrowBatches {

  private ArrowBatches() {}

  /**
   * A new root holding {@code batch}'s rows, mapped by the batch types alone; the caller closes it.
   * For a scan, a {@link #converter} reuses one root.
   */
  public static VectorSchemaRoot toArrow(RecordBatch batch, BufferAllocator allocator) {
    return toArrow(batch, ArrowMapping.of(batch.schema()), allocator);
  }

  /** A new root holding {@code batch}'s rows through {@code mapping}; the caller closes it. */
  public static VectorSchemaRoot toArrow(
      RecordBatch batch, ArrowMapping mapping, BufferAllocator allocator) {
    BatchConverter converter = converter(mapping, allocator);
    try {
      // The converter holds nothing but its root, which the caller now owns.
      return converter.convert(batch);
    } catch (RuntimeException e) {
      converter.close();
      throw e;
    }
  }

  /** A converter that fills one reusable root from batches of {@code mapping}'s schema. */
  public static BatchConverter converter(ArrowMapping mapping, BufferAllocator allocator) {
    Objects.requireNonNull(mapping, "mapping is null");
    Objects.requireNonNull(allocator, "allocator is null");
    return new BatchConverter(
        mapping, VectorSchemaRoot.create(mapping.arrowSchema(), allocator), allocator);
  }
}
