/**
 * Reading and decoding pages: {@code ChunkPages} opens a column chunk's data pages one at a time
 * (repetition and definition levels as runs, page v1 and v2), {@code ValuesDecoders} chooses each
 * page's values decoder from its encoding (every encoding of the format is decoded here: PLAIN,
 * dictionary, RLE booleans, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT); the read's {@code dev.prefetch.spi.ByteArrayPool} lends the arrays pages are
 * decompressed into. Decoders write into primitive arrays and {@code BinaryBuilder}s, a run of
 * values per call. Depends on no other package of the read path.
 */
package dev.prefetch.parquet.internal.page;
