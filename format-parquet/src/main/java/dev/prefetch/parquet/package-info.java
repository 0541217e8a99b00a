/**
 * The Parquet format of the prefetch runtime, built on parquet-hadoop.
 *
 * <p>This package holds what users name: {@link dev.prefetch.parquet.ParquetOptions} (the {@code
 * parquet.*} keys), {@link dev.prefetch.parquet.RowGroupSlice} (the locator of a range) and {@link
 * dev.prefetch.parquet.ParquetFooters} (footer tools). The format itself, {@code
 * internal.ParquetFormat}, is found through {@code ServiceLoader}; users open files with {@link
 * dev.prefetch.Readers}. Nothing under {@code internal} is API, and nothing there is named here. A
 * plan reads the footer once per reader (through the metadata cache when the {@link
 * dev.prefetch.ReadContext} has one), makes one range per row group, or page-aligned slices of a
 * large row group when there are fewer row groups than producers, and every producer opens its own
 * parquet-hadoop reader over the same parsed footer. Column chunks are read by parquet-hadoop and
 * their pages decoded by our own decoders: every encoding (PLAIN, dictionary, RLE, bit-packed
 * levels, DELTA_*, BYTE_STREAM_SPLIT) and both page versions are read; pages are decompressed by
 * parquet-hadoop's codecs (UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW) and ours for legacy LZ4
 * (Hadoop framing or one raw block, through aircompressor) and BROTLI (brotli4j). Filters are
 * parquet's own {@code FilterPredicate} or {@code FilterCompat.Filter}: they prune row groups
 * (statistics, dictionaries, bloom filters) and pages (column indexes); rows inside the kept pages
 * are not filtered.
 *
 * <p>The type mapping of every Parquet physical, logical and converted type is the table "Type
 * mapping" of the project's README; {@code internal.plan.LeafTypes} and {@code
 * internal.plan.Projection} implement it. INT96 maps to microseconds unless {@link
 * dev.prefetch.parquet.ParquetOptions#INT96_TIMESTAMP_UNIT} asks for nanoseconds. A field is
 * nullable when it (or, for a projected dotted path such as {@code a.b}, any group on the path) is
 * optional. A dotted path selects a field through groups; it cannot enter a list or a map.
 */
package dev.prefetch.parquet;
