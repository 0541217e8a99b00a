/**
 * Flat columns (no repetition) of every type: the generic {@code FlatColumnReader} does levels,
 * nulls, page iteration and row positions; the per-type part is a small {@code ColumnAdapter}
 * (buffer, bulk decode, spread around nulls, vector), chosen in one place by {@code
 * ColumnAdapters}. {@code VectorArrayPool} recycles the arrays of a column's released vectors.
 * Depends on {@code page}.
 */
package dev.prefetch.parquet.internal.flat;
