/**
 * Parquet planning and reading, not a public API: {@code FooterReader} (the footer, once per
 * reader, through the cache), {@code ParquetPlanner} (row groups, pruning, slices), {@code
 * ParquetFilePlan} and {@code ParquetRangeReader} (one parquet-hadoop reader per producer), {@code
 * Projection} (Parquet schema to {@code ColumnNode} trees), {@code PageIndexReader} (column and
 * offset indexes through the cache). Decoders live in {@code internal.decode}.
 */
package dev.prefetch.parquet.internal;
