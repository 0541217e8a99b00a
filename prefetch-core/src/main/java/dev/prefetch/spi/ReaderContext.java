package dev.prefetch.spi;

import java.util.Objects;

/**
 * What the read that opens a range reader hands it ({@link FilePlan#openReader(ReaderContext)}):
 * where the reader reports the memory it holds, the read's array pools, and the read's counters.
 * The runtime makes the pools and the counters once per read, so every range reader of the read,
 * over all its files, shares them: the arrays of batches released while one file was read build the
 * next file's batches, and every reader counts into the read's metrics.
 *
 * @param ledger where the reader reports what it holds besides its batches
 * @param pools the read's pools of released arrays, one per output column
 * @param counters the read's counters (the same the plan counted its metadata reads into)
 */
public record ReaderContext(MemoryLedger ledger, ColumnArrayPools pools, ScanCounters counters) {

  public ReaderContext {
    Objects.requireNonNull(ledger, "ledger is null");
    Objects.requireNonNull(pools, "pools is null");
    Objects.requireNonNull(counters, "counters is null");
  }

  /**
   * A context for a reader opened outside a read (a tool, a test): a ledger that counts nothing,
   * pools of its own, and {@code counters}.
   */
  public static ReaderContext standalone(ScanCounters counters) {
    return new ReaderContext(MemoryLedger.NONE, ColumnArrayPools.unshared(), counters);
  }
}
