package dev.prefetch.spi;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Named counters a format adds to while a reader plans and reads (bytes read, footer reads, row
 * groups decoded, ...). Thread-safe: producers add concurrently. One instance per read; the runtime
 * hands it to the format's plan and to every range reader it opens ({@link ReaderContext}).
 */
public final class ScanCounters {

  /** Bytes read from storage, data and metadata. */
  public static final String BYTES_READ = "bytesRead";

  /** Read requests sent to storage. */
  public static final String READ_REQUESTS = "readRequests";

  /** Footer (Parquet) or tail (ORC) reads from storage; a cache hit is not one. */
  public static final String FOOTER_READS = "footerReads";

  /** Footer or tail bytes read from storage. */
  public static final String FOOTER_BYTES_READ = "footerBytesRead";

  private final ConcurrentHashMap<String, LongAdder> counters = new ConcurrentHashMap<>();
  private final CounterListener listener;

  /** Counters nobody listens to. */
  public ScanCounters() {
    this(CounterListener.NONE);
  }

  /** Counters that tell {@code listener} of every add. */
  public ScanCounters(CounterListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener is null");
  }

  public void add(String name, long delta) {
    counters.computeIfAbsent(name, k -> new LongAdder()).add(delta);
    listener.counted(this, name, delta);
  }

  public void increment(String name) {
    add(name, 1);
  }

  public long get(String name) {
    LongAdder adder = counters.get(name);
    return adder == null ? 0 : adder.sum();
  }

  /** The counters now, sorted by name. */
  public Map<String, Long> snapshot() {
    Map<String, Long> values = new TreeMap<>();
    counters.forEach((name, adder) -> values.put(name, adder.sum()));
    return values;
  }
}
