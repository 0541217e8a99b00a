package dev.prefetch.spi;

/**
 * Hears every add to a read's {@link ScanCounters}, on the thread that adds, right after the count
 * is taken: how the runtime attributes bytes and requests to the plan or range being read (its
 * flight-recorder events). Implementations must be thread-safe and cheap: they run inside reads.
 */
@FunctionalInterface
public interface CounterListener {

  /** Hears nothing. */
  CounterListener NONE = (counters, name, delta) -> {};

  /** {@code delta} was added to counter {@code name} of {@code counters}. */
  void counted(ScanCounters counters, String name, long delta);
}
