/**
 * Checks of the page bytes a Parquet read brings in, not a public API: {@link
 * dev.prefetch.parquet.internal.check.PageCheckingStream} is the range reader's stream, which, as
 * the last byte of an armed chunk (or selected page run) arrives, has {@link
 * dev.prefetch.parquet.internal.check.PageHeaderCheck} walk its page headers (read field by field
 * by {@link dev.prefetch.parquet.internal.check.PageHeaderFields} over {@code thrift}'s cursor) and
 * refuse sizes and counts that would make parquet-hadoop allocate past what the chunk and its codec
 * allow, before parquet-hadoop parses anything; {@link
 * dev.prefetch.parquet.internal.check.PageChecksums} names the column and page of a checksum
 * mismatch parquet-hadoop reported without them. It depends on {@code io} (the forwarding stream)
 * and {@code thrift}; the codecs and the page index reads use it, the range reader arms it.
 */
package dev.prefetch.parquet.internal.check;
