/**
 * Page decompression, not a public API: the codec factory each range reader hands parquet-hadoop is
 * a stack of factories that put decompressors of their own in front of parquet-hadoop's ({@code
 * DecompressionInFront}): {@link dev.prefetch.parquet.internal.codec.PageCodecs} reads what other
 * writers need beyond parquet-hadoop's factory (empty all-null pages, legacy LZ4 in either framing,
 * BROTLI), and {@link dev.prefetch.parquet.internal.codec.HeapSnappyCodecs} decompresses SNAPPY
 * pages heap to heap into arrays of the read's {@code spi.ByteArrayPool} and checks every other
 * page's stated size against what its codec can expand its bytes to (the bound of {@code check})
 * before a decompressor allocates it. It depends on {@code check} only; the file plan chooses it
 * through {@code PageCodecs.forReader}.
 */
package dev.prefetch.parquet.internal.codec;
