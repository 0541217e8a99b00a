/**
 * Parquet planning and reading, not a public API: {@code ParquetFormat} (the SPI implementation),
 * {@code ParquetPlanner} (the plan: footer through {@code footer.FooterLoader}, pruning through
 * {@code RowGroupPruner}, ranges cut by {@code plan.RowGroupSlicer}), {@code ParquetFilePlan} and
 * {@code ParquetRangeReader} (one parquet-hadoop reader per producer), {@code CountingInputFile}
 * (counted streams over core's {@code CountingInputStream}), {@code Projection} (Parquet schema to
 * {@code ColumnNode} trees), {@code PageIndexReader} (column and offset indexes through the cache).
 * Footers live in {@code internal.footer}, decoders in {@code internal.decode}.
 */
package dev.prefetch.parquet.internal;
