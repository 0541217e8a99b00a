/**
 * The lazy footer index for random row-group reads on wide Parquet files.
 *
 * <p>{@link dev.prefetch.parquet.internal.footer.FooterIndex} records, in one object-free pass over
 * the Thrift compact bytes of {@code FileMetaData}, where every row group's struct lies; {@link
 * dev.prefetch.parquet.internal.footer.SelectiveFooterDecoder} then decodes only the schema and the
 * row groups (and column chunks) a read asks for into parquet-hadoop's {@code ParquetMetadata}.
 * {@link dev.prefetch.parquet.internal.footer.FooterIndexCodec} stores an index in the metadata
 * cache beside the footer bytes. Not a public API.
 */
package dev.prefetch.parquet.internal.footer;
