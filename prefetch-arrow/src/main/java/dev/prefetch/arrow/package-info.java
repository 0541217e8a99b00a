/**
 * Batches of the prefetch reader as Apache Arrow.
 *
 * <p>{@link dev.prefetch.arrow.ArrowMapping} maps a batch schema to an Arrow schema (with the
 * file's own types where our batch types widen them), {@link dev.prefetch.arrow.ArrowBatches} and
 * {@link dev.prefetch.arrow.BatchConverter} fill a {@code VectorSchemaRoot} from a batch, and
 * {@link dev.prefetch.arrow.PrefetchArrowReader} streams a whole scan as an {@code ArrowReader},
 * also across the C Data Interface. Dictionary vectors of a Parquet scan become Arrow
 * dictionary-encoded arrays, with the converter or reader as their {@code DictionaryProvider}.
 * Memory is allocated from the caller's {@code BufferAllocator}; Arrow's memory module needs {@code
 * --add-opens=java.base/java.nio=ALL-UNNAMED} on Java 17.
 */
package dev.prefetch.arrow;
