package dev.prefetch;

import dev.prefetch.cache.Cache;
import java.io.Closeable;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;

/**
 * The runtime resources that many reads share: the Hadoop configuration (filesystems), an optional
 * executor for producers, an optional metadata cache, and an optional sink for reader metrics.
 *
 * <p>A context is cheap to build, thread-safe, and meant to be created once per engine or task and
 * handed to every {@link Readers#open} call. Closing it shuts down nothing it was given; it only
 * marks it closed, so a read opened afterwards fails fast.
 *
 * <p>Producers: without an executor, each prefetching reader starts its own daemon threads, named
 * after the reader, and stops them on close. With an executor, producers run as its tasks and never
 * hold one of its threads while they wait for queue room or memory budget: a producer that must
 * wait returns its thread and is resubmitted when room frees, and a consumer waiting for a producer
 * that no thread runs yet runs it itself. So any executor serves any number of open readers: a pool
 * of one thread, a {@code ForkJoinPool} (the common pool too, also when the consumers run in it),
 * virtual threads, a caller-runs pool. A smaller pool only means less parallelism. A rejected
 * submission fails the read.
 */
public final class ReadContext implements Closeable {

  private final Configuration configuration;
  private final ExecutorService executor;
  private final Cache cache;
  private final Consumer<ReaderMetrics> metricsSink;
  private volatile boolean closed;

  private ReadContext(Builder b) {
    this.configuration = b.configuration;
    this.executor = b.executor;
    this.cache = b.cache;
    this.metricsSink = b.metricsSink;
  }

  /** A context with a default Hadoop configuration, no executor, no cache. */
  public static ReadContext defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Configuration configuration() {
    return configuration;
  }

  /** The executor producers run on, or null for per-reader daemon threads. */
  public ExecutorService executor() {
    return executor;
  }

  /** The metadata cache, or null for none. */
  public Cache cache() {
    return cache;
  }

  /** Receives each reader's final metrics when it closes; null for none. */
  public Consumer<ReaderMetrics> metricsSink() {
    return metricsSink;
  }

  /** Whether {@link #close()} was called; a closed context opens no reader. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * Closes the context: {@link Readers#open} refuses it from then on (with an {@link
   * IllegalStateException}). Readers already open keep working. The executor and the cache are the
   * caller's and are not shut down. Idempotent; throws nothing.
   */
  @Override
  public void close() {
    closed = true;
  }

  /** Builds a {@link ReadContext}. */
  public static final class Builder {
    private Configuration configuration;
    private ExecutorService executor;
    private Cache cache;
    private Consumer<ReaderMetrics> metricsSink;

    private Builder() {}

    /**
     * The Hadoop configuration for filesystems and format libraries (default: a new one).
     *
     * @throws NullPointerException when {@code conf} is null
     */
    public Builder configuration(Configuration conf) {
      this.configuration = Objects.requireNonNull(conf, "configuration is null");
      return this;
    }

    /** The executor producers run on (default: null, per-reader daemon threads). */
    public Builder executor(ExecutorService executor) {
      this.executor = executor;
      return this;
    }

    /** The metadata cache shared by the readers of this context (default: null, none). */
    public Builder cache(Cache cache) {
      this.cache = cache;
      return this;
    }

    /** Receives each reader's final metrics when it closes (default: null, none). */
    public Builder metricsSink(Consumer<ReaderMetrics> sink) {
      this.metricsSink = sink;
      return this;
    }

    /** The context; a new Hadoop {@code Configuration} when none was given. */
    public ReadContext build() {
      if (configuration == null) {
        configuration = new Configuration();
      }
      return new ReadContext(this);
    }
  }
}
