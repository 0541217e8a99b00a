package dev.prefetch.arrow;

import dev.prefetch.batch.RecordBatch;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

/**
 * Batches as Arrow {@link VectorSchemaRoot}s.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *      BatchReader reader = Readers.open(path, options, context);
 *      BatchConverter converter = ArrowBatches.converter(
 *          ArrowMapping.of(reader.schema()), allocator)) {
 *   for (RecordBatch batch; (batch = reader.next()) != null; ) {
 *     VectorSchemaRoot root = converter.convert(batch);
 *     batch.release();
 *     ... // read root until the next convert
 *   }
 * }
 * }</pre>
 *
 * <p>Every value is copied once into memory of the given allocator: validity bitmaps from the null
 * masks, offsets and values in bulk. Dictionary vectors of a batch become Arrow dictionary-encoded
 * arrays where the mapping says so ({@link ArrowMapping#dictionaryEncoded}, {@link
 * ArrowMapping#of(dev.prefetch.batch.Schema, org.apache.hadoop.fs.Path,
 * org.apache.hadoop.conf.Configuration, dev.prefetch.ReadOptions)}), with the converter as their
 * {@link DictionaryProvider}; in every other field they are expanded. A root alone carries no
 * dictionaries, so a one-off conversion with dictionary-encoded fields hands them to a provider the
 * caller passes.
 */
public final class ArrowBatches {

  private ArrowBatches() {}

  /**
   * A new root holding {@code batch}'s rows, mapped by the batch types alone (every column
   * expanded); the caller closes it. For a scan, a {@link #converter} reuses one root.
   */
  public static VectorSchemaRoot toArrow(RecordBatch batch, BufferAllocator allocator) {
    return toArrow(batch, ArrowMapping.of(batch.schema()), allocator);
  }

  /**
   * A new root holding {@code batch}'s rows through {@code mapping}; the caller closes it.
   *
   * @throws IllegalArgumentException when the mapping dictionary-encodes a column: its dictionary
   *     would have no owner (see {@link #toArrow(RecordBatch, ArrowMapping, BufferAllocator,
   *     DictionaryProvider.MapDictionaryProvider)})
   */
  public static VectorSchemaRoot toArrow(
      RecordBatch batch, ArrowMapping mapping, BufferAllocator allocator) {
    Objects.requireNonNull(mapping, "mapping is null");
    if (!mapping.dictionaryEncodedColumns().isEmpty()) {
      throw new IllegalArgumentException(
          "the mapping dictionary-encodes "
              + mapping.dictionaryEncodedColumns()
              + ": convert with a provider for their dictionaries, or with a converter");
    }
    return toArrow(batch, mapping, allocator, new DictionaryProvider.MapDictionaryProvider());
  }

  /**
   * A new root holding {@code batch}'s rows through {@code mapping}, whose dictionary-encoded
   * fields' dictionaries are put into {@code dictionaries}; the caller closes the root and the
   * dictionaries (for example with {@code dictionaries.close()}).
   *
   * @throws IllegalArgumentException when {@code dictionaries} already holds one of the ids
   */
  public static VectorSchemaRoot toArrow(
      RecordBatch batch,
      ArrowMapping mapping,
      BufferAllocator allocator,
      DictionaryProvider.MapDictionaryProvider dictionaries) {
    Objects.requireNonNull(dictionaries, "dictionaries is null");
    BatchConverter converter = converter(mapping, allocator);
    try {
      for (long id : converter.getDictionaryIds()) {
        if (dictionaries.lookup(id) != null) {
          throw new IllegalArgumentException("the provider already holds dictionary " + id);
        }
      }
      converter.convert(batch);
    } catch (RuntimeException e) {
      converter.close();
      throw e;
    }
    // The converter holds nothing but its root and dictionaries, which the caller now owns.
    return converter.handOver(dictionaries);
  }

  /** A converter that fills one reusable root from batches of {@code mapping}'s schema. */
  public static BatchConverter converter(ArrowMapping mapping, BufferAllocator allocator) {
    Objects.requireNonNull(mapping, "mapping is null");
    Objects.requireNonNull(allocator, "allocator is null");
    return new BatchConverter(mapping, allocator);
  }
}
