/**
 * The bytes a Parquet read fetches, not a public API: {@link
 * dev.prefetch.parquet.internal.io.CountingInputFile} opens the file's streams through core's
 * counting stream (every byte and request counted) and offers vectored reads off the local
 * filesystem; {@link dev.prefetch.parquet.internal.io.ReadCoalescing} plans how a vectored read's
 * ranges join into fewer storage requests (pure arithmetic) and {@link
 * dev.prefetch.parquet.internal.io.CoalescedReads} serves the ranges from those requests; {@code
 * ReadAhead} issues the next row group's chunks while the current one decodes and serves them to
 * its vectored read; {@link dev.prefetch.parquet.internal.io.ChunkAllocator} is the allocator
 * parquet-hadoop reads column chunks into, reusing a finished row group's arrays and reclaiming
 * what vectored reads lent; and {@link
 * dev.prefetch.parquet.internal.io.ForwardingSeekableInputStream} is the base of the streams that
 * watch a read pass (here, and the page checks of {@code internal.check}). It sits below the
 * planner and the range reader and depends on no other package of the reader.
 */
package dev.prefetch.parquet.internal.io;
