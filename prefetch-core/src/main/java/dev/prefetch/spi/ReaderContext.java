package dev.prefetch.spi;

import java.util.Objects;

/**
 * What the read that opens a range reader hands it ({@link FilePlan#openReader(ReaderContext)}):
 * where the reader reports the memory it holds, the read's pools, and the read's counters. The
 * runtime makes the pools and the counters once per read, so every range reader of the read, over
 * all its files, shares them: the arrays of batches released and the buffers given back while one
 * file was read serve the next file's, and every reader counts into the read's metrics.
 *
 * @param ledger where the reader reports what it holds besides its batches
 * @param pools the read's pools of released batch arrays, one per output column
 * @param buffers the read's pool of byte arrays for pages, blocks and chunks, whose free arrays it
 *     counts in the read's budget itself
 * @param counters the read's counters (the same the plan counted its metadata reads into)
 */
public record ReaderContext(
    MemoryLedger ledger, ColumnArrayPools pools, ByteArrayPool buffers, ScanCounters counters) {

  public ReaderContext {
    Objects.requireNonNull(ledger, "ledger is null");
    Objects.requireNonNull(pools, "pools is null");
    Objects.requireNonNull(buffers, "buffers is null");
    Objects.requireNonNull(counters, "counters is null");
  }

  /**
   * A context for a reader opened outside a read (a tool, a test): a ledger that counts nothing,
   * pools of its own, and {@code counters}.
   */
  public static ReaderContext standalone(ScanCounters counters) {
    return new ReaderContext(
        MemoryLedger.NONE, ColumnArrayPools.unshared(), new ByteArrayPool(), counters);
  }
}
