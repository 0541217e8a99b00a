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
 * <p>Thread-safety: {@link #openReader(ReaderContext)} is called concurrently by producer threads;
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

  /**
   * Opens a reader with its own file handle over this plan's (shared, parsed) metadata, which
   * reports the memory it holds besides its batches to {@code context}'s ledger (buffers, chunk or
   * stripe bytes, reads in flight), builds its batches in the read's pools and counts into the
   * read's counters.
   */
  RangeReader openReader(ReaderContext context) throws IOException;

  /**
   * Whether this plan's readers read a range ahead when told it ({@link RangeReader#prefetch}):
   * then a producer claims its next range as soon as it has started its current one, and tells its
   * reader, so that the next range's reads overlap with the current one's decoding. Worth it where
   * a read waits (an object store's first byte and per-stream rate), not on local files, where it
   * would only hold memory longer and claim ranges earlier. The default: no.
   */
  default boolean readsAhead() {
    return false;
  }

  @Override
  default void close() throws IOException {}
}
