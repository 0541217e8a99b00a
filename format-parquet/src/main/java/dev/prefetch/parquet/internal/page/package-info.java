/**
 * Reading and decoding pages: {@code ChunkPages} opens a column chunk's data pages one at a time
 * (definition levels as runs, page v1 and v2), {@code ValuesDecoders} chooses each page's values
 * decoder from its encoding (PLAIN, dictionary and DELTA_BINARY_PACKED are ours; the other
 * encodings go through {@code HadoopValues}, the one adapter over parquet-hadoop's value readers),
 * and {@code ByteArrayPool} lends the arrays pages are decompressed into. Decoders write into
 * primitive arrays and {@code BinaryBuilder}s, a run of values per call. Depends on no other
 * package of the read path.
 */
package dev.prefetch.parquet.internal.page;
