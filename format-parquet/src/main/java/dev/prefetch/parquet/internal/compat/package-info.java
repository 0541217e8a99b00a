/**
 * Compatibility shims over parquet-hadoop, not a public API: {@link
 * dev.prefetch.parquet.internal.compat.RowRangesCompat} calls the methods whose row-range types
 * moved between parquet 1.17 (the version Spark 4.2 ships) and 1.18, through reflection resolved
 * once, so one jar runs on both. The planner's page pruning and the range reader's page-filtered
 * reads go through it; it depends on no other package of the reader.
 */
package dev.prefetch.parquet.internal.compat;
