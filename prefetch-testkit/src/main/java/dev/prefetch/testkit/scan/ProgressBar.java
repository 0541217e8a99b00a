package dev.prefetch.testkit.scan;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A progress line on stderr for scans that run longer than a second.
 *
 * <p>Design. The scanning thread only adds to {@link #rows} (an atomic counter); a daemon thread
 * owned by this object wakes every 200 ms, draws after the first second, and is stopped and joined
 * by {@link #close()}, which also clears the line. Nothing is drawn when disabled (no terminal, or
 * JSON output), and then no thread is started.
 */
public final class ProgressBar implements AutoCloseable {

  private static final long FIRST_DRAW_NANOS = 1_000_000_000L;
  private static final int WIDTH = 30;

  private final AtomicLong rows = new AtomicLong();
  private final long totalRows;
  private final String label;
  private final PrintStream err;
  private final Thread thread;
  private volatile boolean stopped;
  private volatile boolean drawn;

  private ProgressBar(String label, long totalRows, PrintStream err, boolean enabled) {
    this.label = label;
    this.totalRows = totalRows;
    this.err = err;
    if (enabled) {
      thread = new Thread(this::run, "prefetch-scan-progress");
      thread.setDaemon(true);
      thread.start();
    } else {
      thread = null;
    }
  }

  /** A bar that draws only when stderr is a terminal and {@code quiet} is false. */
  public static ProgressBar start(String label, long totalRows, PrintStream err, boolean quiet) {
    return new ProgressBar(label, totalRows, err, !quiet && System.console() != null);
  }

  /** A bar that never draws (for benchmarks and tests). */
  public static ProgressBar none() {
    return new ProgressBar("", 0, System.err, false);
  }

  public void add(long count) {
    rows.addAndGet(count);
  }

  private void run() {
    long start = System.nanoTime();
    while (!stopped) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
      long elapsed = System.nanoTime() - start;
      if (!stopped && elapsed >= FIRST_DRAW_NANOS) {
        draw(elapsed);
      }
    }
  }

  private void draw(long elapsedNanos) {
    long done = rows.get();
    double seconds = elapsedNanos / 1e9;
    StringBuilder line = new StringBuilder("\r").append(label).append(' ');
    if (totalRows > 0) {
      double fraction = Math.min(1.0, done / (double) totalRows);
      int filled = (int) (fraction * WIDTH);
      line.append('[')
          .append("#".repeat(filled))
          .append(" ".repeat(WIDTH - filled))
          .append("] ")
          .append(String.format(Locale.ROOT, "%3.0f%% ", fraction * 100));
    }
    line.append(String.format(Locale.ROOT, "%,d rows  %.1fs", done, seconds));
    err.print(line);
    err.flush();
    drawn = true;
  }

  @Override
  public void close() {
    stopped = true;
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (drawn) {
        err.print("\r" + " ".repeat(label.length() + WIDTH + 40) + "\r");
        err.flush();
      }
    }
  }
}
