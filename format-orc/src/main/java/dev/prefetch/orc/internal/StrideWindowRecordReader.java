package dev.prefetch.orc.internal;

import java.io.IOException;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.impl.ReaderImpl;

/**
 * orc-core's record reader over one stripe, restricted to a window of its row groups (strides), so
 * that it reads from storage only the bytes of those row groups (plus orc-core's padding of each
 * partial stream read) rather than the whole stripe.
 *
 * <p>orc-core already reads only some row groups when a predicate excludes others: it asks {@link
 * #pickRowGroups()} which row groups of the stripe to read, plans partial reads from the row index,
 * and skips the rest. This subclass intersects that answer with the window. orc-core calls it from
 * its constructor (which enters the reader's first stripe), before this class's fields are
 * assigned, so the window travels to that first call through a thread-local set around the
 * constructor; the reader is confined to the thread that builds and uses it.
 *
 * <p>Its streams are end-checked like every record reader's of this package ({@link
 * CheckedRecordReader}).
 *
 * <p>Requires a predicate on the options (the plan always gives one when the file has a row index),
 * because only then does orc-core read the row index that partial reads need.
 */
final class StrideWindowRecordReader extends CheckedRecordReader {

  /** Row groups {@code [first, last]} of a stripe of {@code groups} row groups. */
  private record Window(int first, int last, int groups) {}

  private static final ThreadLocal<Window> CONSTRUCTING = new ThreadLocal<>();

  private final Window window;

  private StrideWindowRecordReader(ReaderImpl reader, Reader.Options options, Window window)
      throws IOException {
    super(reader, options, StreamGuard.ORC_CORE);
    this.window = window;
  }

  /**
   * Opens a reader of the single stripe {@code options} select, reading only its row groups {@code
   * [first, last]} of {@code groups}.
   */
  static RecordReader open(
      Reader reader, Reader.Options options, int first, int last, int groups, ReadChecks checks)
      throws IOException {
    Window window = new Window(first, last, groups);
    CONSTRUCTING.set(window);
    try {
      return construct(
          StreamGuard.ORC_CORE,
          checks,
          () -> new StrideWindowRecordReader((ReaderImpl) reader, options, window));
    } finally {
      CONSTRUCTING.remove();
    }
  }

  @Override
  protected boolean[] pickRowGroups() throws IOException {
    boolean[] picked = super.pickRowGroups();
    Window w = window != null ? window : CONSTRUCTING.get();
    if (w == null) {
      return picked;
    }
    // null: orc-core reads every row group; otherwise one flag per row group (an empty array,
    // which orc-core never passes here, would mean none).
    boolean[] mask = new boolean[w.groups()];
    for (int g = w.first(); g <= w.last() && g < mask.length; g++) {
      mask[g] = picked == null || (g < picked.length && picked[g]);
    }
    return mask;
  }
}
