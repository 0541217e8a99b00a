/**
 * Parquet planning and reading, not a public API: the top of the read, which puts the packages
 * below it together. {@code ParquetFormat} (the SPI implementation) plans through {@code
 * ParquetPlanner}: the file opened and the columns projected ({@code plan}), the footer loaded
 * ({@code footer}), row groups and pages pruned and cut into ranges ({@code plan}, with the page
 * indexes of {@code index}). {@code ParquetFilePlan} holds the result and opens a {@code
 * ParquetRangeReader} per producer: parquet-hadoop's file reader ({@code index}) over the counted,
 * coalesced input ({@code io}), with the page checks armed on its stream ({@code check}) and the
 * page codecs in front of parquet-hadoop's ({@code codec}), and one {@code ProjectedColumn} per
 * top-level column ({@code FlatProjectedColumn}, whose dictionary vectors {@code DictionaryChunks}
 * decides, or {@code NestedProjectedColumn}), which decode through the stages {@code page}, {@code
 * flat} and {@code nested}. No package below depends on this one; {@code ReadPathPackagesTest} pins
 * which may use which, and docs/ARCHITECTURE.md has the map.
 */
package dev.prefetch.parquet.internal;
