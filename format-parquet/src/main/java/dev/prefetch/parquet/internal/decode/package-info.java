/**
 * Decoding column values into batch vectors. {@code ColumnDecoder} is the unit per physical type
 * family (flat columns decode in one tight loop per batch; nested leaves append entry by entry),
 * {@code Assembler} rebuilds structs, lists and maps from repetition and definition levels, and
 * {@code Decoders} holds the type mapping. parquet-hadoop's {@code ColumnReader} is the value
 * source and the fallback of any faster bulk decoder.
 */
package dev.prefetch.parquet.internal.decode;
