/**
 * The parts of a Parquet plan, not a public API: {@link
 * dev.prefetch.parquet.internal.plan.PlanInput} opens the file for planning (configuration, status,
 * cache identity, counted input); {@link dev.prefetch.parquet.internal.plan.Projection} turns the
 * selected columns into {@link dev.prefetch.parquet.internal.plan.ColumnNode} trees with their
 * batch types ({@link dev.prefetch.parquet.internal.plan.LeafTypes}: the type mapping); {@link
 * dev.prefetch.parquet.internal.plan.RowGroupPruner} keeps the row groups and rows a predicate may
 * match (statistics, dictionaries, bloom filters, column indexes); {@link
 * dev.prefetch.parquet.internal.plan.RowGroupSlicer} cuts a kept row group's selected rows into the
 * row intervals of its read ranges (pure arithmetic, reading no file); a {@link
 * dev.prefetch.parquet.internal.plan.SliceSpec} tells the range reader what one range reads. The
 * planner in {@code internal} puts them together; this package depends on {@code io}, {@code index}
 * and {@code compat}, and knows nothing of the range reader or the column readers.
 */
package dev.prefetch.parquet.internal.plan;
