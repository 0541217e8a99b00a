package dev.prefetch.orc.internal;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.orc.impl.RecordReaderImpl;
import org.apache.orc.impl.reader.StripePlanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hook that hands orc-core's record readers end-checked streams: the write of an {@link
 * EndCheckedStripePlanner} into a record reader's private planner field (see {@link
 * CheckedRecordReader} for why there is no other way in).
 *
 * <p>The hook may be missing: a later orc-core renames or retypes the field, or a later JDK refuses
 * to make it accessible or to write it. A reader then still reads every valid file as orc-core
 * does, but a corrupt integer run can keep its thread spinning, so the loss is never silent: the
 * first time the hook is found missing it is logged (once per guard, at WARN), every record reader
 * opened without it counts {@link #UNGUARDED_READERS} in the read's metrics, and the tests fail
 * ({@code recordReadersOfThisOrcCoreAndJdkGetEndCheckedStreams}).
 *
 * <p>Thread-safe: the field is resolved once; {@link #writable} only goes from true to false.
 */
final class StreamGuard {

  /** Format counter: record readers that read orc-core's streams without the end check. */
  static final String UNGUARDED_READERS = "orcUnguardedRecordReaders";

  private static final Logger LOG = LoggerFactory.getLogger(StreamGuard.class);

  /** The guard of this orc-core: its record reader's {@code planner} field. */
  static final StreamGuard ORC_CORE = install(RecordReaderImpl.class, "planner");

  private final Field field;
  private final String missing;
  private volatile boolean writable;
  private final AtomicBoolean logged = new AtomicBoolean();

  private StreamGuard(Field field, String missing) {
    this.field = field;
    this.missing = missing;
    this.writable = field != null;
  }

  /** The guard over field {@code name} of {@code owner}; unavailable when it cannot be written. */
  static StreamGuard install(Class<?> owner, String name) {
    try {
      Field field = owner.getDeclaredField(name);
      if (field.getType() != StripePlanner.class) {
        return new StreamGuard(
            null,
            owner.getName()
                + "."
                + name
                + " is a "
                + field.getType().getName()
                + ", not a "
                + StripePlanner.class.getName());
      }
      field.setAccessible(true);
      return new StreamGuard(field, null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return new StreamGuard(null, "cannot access " + owner.getName() + "." + name + ": " + e);
    }
  }

  /** Whether record readers get end-checked streams. */
  boolean isAvailable() {
    return writable;
  }

  /**
   * Swaps {@code reader}'s planner for an end-checked copy unless it has one; false when the hook
   * is missing (logged the first time).
   */
  boolean guard(RecordReaderImpl reader) {
    if (!writable) {
      logOnce(missing);
      return false;
    }
    try {
      Object planner = field.get(reader);
      if (planner instanceof StripePlanner plain && !(planner instanceof EndCheckedStripePlanner)) {
        field.set(reader, new EndCheckedStripePlanner(plain));
      }
      return true;
    } catch (IllegalAccessException | RuntimeException e) {
      writable = false;
      logOnce("cannot write " + field + ": " + e);
      return false;
    }
  }

  /** Whether the missing hook has been logged. */
  boolean hasLogged() {
    return logged.get();
  }

  private void logOnce(String why) {
    if (logged.compareAndSet(false, true)) {
      LOG.warn(
          "ORC record readers read without the end check of their streams ({}): a corrupt"
              + " integer run can then keep a reader thread busy for hours instead of failing; the"
              + " read metrics count such readers as {}",
          why,
          UNGUARDED_READERS);
    }
  }
}
