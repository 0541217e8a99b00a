/**
 * Parquet's page indexes, not a public API: {@link
 * dev.prefetch.parquet.internal.index.PageIndexReader} reads ColumnIndex and OffsetIndex bytes
 * through the metadata cache (by position and length) or from the file, each length checked, and
 * may keep parsed offset indexes in an {@link dev.prefetch.parquet.internal.index.OffsetIndexCache}
 * for the reader's life; {@link dev.prefetch.parquet.internal.index.LazyColumnIndexStore} gives the
 * planner's page pruning only the indexes its filter asks about; {@link
 * dev.prefetch.parquet.internal.index.IndexedFileReader} is parquet-hadoop's file reader over the
 * shared parsed footer with its page indexes read here, a row group's offset indexes fetched in the
 * joined requests of {@link dev.prefetch.parquet.internal.index.OffsetIndexRequests}. It depends on
 * {@code io} (read coalescing) and {@code check} (a page-filtered read's pages are armed for the
 * header checks as their offset index is read); the planner and the range reader use it.
 */
package dev.prefetch.parquet.internal.index;
