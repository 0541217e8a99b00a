/**
 * Parquet range planning arithmetic, not a public API: {@link
 * dev.prefetch.parquet.internal.plan.RowGroupSlicer} cuts a row group's selected rows into the row
 * intervals of its read ranges (row selections, page-aligned slices, pages kept by column indexes).
 * It reads no file and knows nothing of readers.
 */
package dev.prefetch.parquet.internal.plan;
