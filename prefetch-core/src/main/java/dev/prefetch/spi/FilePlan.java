package dev.prefetch.spi;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.Schema;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * A file's read, planned: its projected schema and its ordered read ranges, from metadata read
 * once.
 *
 * <p>Thread-safety: {@link #openReader(MemoryLedger)} is called concurrently by producer threads;
 * everything else is read-only after construction. {@link #close()} is called once, after every
 * reader it opened is closed.
 */
public interface FilePlan extends Closeable {

  DataFile file();

  /** The format's name, as {@link FileFormat#name()}. */
  String formatName();

  Schema schema();

  /** The ranges in ascending row order; ranges.get(i).index() == i. */
  List<ReadRange> ranges();

  /** Sum of the ranges' estimated compressed bytes of the selected columns. */
  default long estimatedBytes() {
    long total = 0;
    for (ReadRange range : ranges()) {
      total += range.estimatedBytes();
    }
    return total;
  }

  /**
   * Below how many estimated bytes this file is read by a single reader: {@code
   * prefetch.min-read-bytes} ({@link ReadOptions#minReadBytes()}) unless the format has a setting
   * of its own for it.
   */
  default long minReadBytes(ReadOptions options) {
    return options.minReadBytes();
  }

  /** Opens a reader with its own file handle over this plan's (shared, parsed) metadata. */
  default RangeReader openReader() throws IOException {
    return openReader(MemoryLedger.NONE);
  }

  /**
   * Opens a reader as {@link #openReader()} does, which reports the memory it holds besides its
   * batches to {@code ledger} (buffers, chunk or stripe bytes, reads in flight).
   */
  RangeReader openReader(MemoryLedger ledger) throws IOException;

  /**
   * Opens a reader as {@link #openReader(MemoryLedger)} does, which may keep what outlives it in
   * {@code state}, the read's state that every range reader of the read shares (the arrays of
   * released batches, for the next file's); a format that keeps nothing ignores it.
   */
  default RangeReader openReader(MemoryLedger ledger, ReadState state) throws IOException {
    return openReader(ledger);
  }

  @Override
  default void close() throws IOException {}
}
