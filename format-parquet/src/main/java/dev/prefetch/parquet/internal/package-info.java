/**
 * Parquet planning and reading, not a public API: {@code ParquetFormat} (the SPI implementation),
 * {@code ParquetPlanner} (the plan: footer through {@code footer.FooterLoader}, pruning through
 * {@code RowGroupPruner}, ranges cut by {@code plan.RowGroupSlicer}), {@code ParquetFilePlan} and
 * {@code ParquetRangeReader} (one parquet-hadoop reader per producer, one {@code ProjectedColumn}
 * per top-level column), {@code CountingInputFile} (counted streams over core's {@code
 * CountingInputStream}; {@code ReadCoalescing}, {@code CoalescedReads} and {@code
 * OffsetIndexRequests} join a range's reads into fewer requests), {@code Projection} and {@code
 * LeafTypes} (Parquet schema to {@code ColumnNode} trees and batch types), {@code PageIndexReader}
 * (column and offset indexes through the cache). Footers live in {@code internal.footer}. The read
 * path below the range reader is staged in packages: {@code page} (pages and their encodings),
 * {@code flat} (the generic flat column reader and the per-type adapters), {@code nested} (levels
 * to structs, lists and maps); docs/ARCHITECTURE.md has the map.
 */
package dev.prefetch.parquet.internal;
