package dev.prefetch.spark.internal;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The source's metrics in Spark's SQL UI (on the scan node), summed over tasks. Spark makes each
 * metric class on the driver by reflection, so each is a public class with a no-argument
 * constructor; tasks report values under the same names ({@link #values}).
 */
public final class ScanMetrics {

  public static final String BYTES_READ = "prefetchBytesRead";
  public static final String READ_REQUESTS = "prefetchReadRequests";
  public static final String PRODUCER_WAIT_MS = "prefetchProducerWaitMs";
  public static final String CONSUMER_WAIT_MS = "prefetchConsumerWaitMs";
  public static final String FOOTER_CACHE_HITS = "prefetchFooterCacheHits";
  public static final String FOOTER_CACHE_MISSES = "prefetchFooterCacheMisses";
  public static final String READ_RANGES = "prefetchReadRanges";
  public static final String PRODUCERS = "prefetchProducers";

  private ScanMetrics() {}

  static CustomMetric[] supported() {
    return new CustomMetric[] {
      new BytesRead(),
      new ReadRequests(),
      new ProducerWaitMs(),
      new ConsumerWaitMs(),
      new FooterCacheHits(),
      new FooterCacheMisses(),
      new ReadRanges(),
      new Producers()
    };
  }

  /** One task's values, in the order of {@link #supported()}. */
  static CustomTaskMetric[] values(
      long bytesRead,
      long readRequests,
      long producerWaitNanos,
      long consumerWaitNanos,
      long footerHits,
      long footerMisses,
      long readRanges,
      long producers) {
    return new CustomTaskMetric[] {
      value(BYTES_READ, bytesRead),
      value(READ_REQUESTS, readRequests),
      value(PRODUCER_WAIT_MS, producerWaitNanos / 1_000_000),
      value(CONSUMER_WAIT_MS, consumerWaitNanos / 1_000_000),
      value(FOOTER_CACHE_HITS, footerHits),
      value(FOOTER_CACHE_MISSES, footerMisses),
      value(READ_RANGES, readRanges),
      value(PRODUCERS, producers)
    };
  }

  private static CustomTaskMetric value(String name, long value) {
    return new CustomTaskMetric() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long value() {
        return value;
      }
    };
  }

  /** A summed metric with a fixed name and description. */
  abstract static class SumMetric extends CustomSumMetric {
    private final String name;
    private final String description;

    SumMetric(String name, String description) {
      this.name = name;
      this.description = description;
    }

    @Override
    public final String name() {
      return name;
    }

    @Override
    public final String description() {
      return description;
    }
  }

  /** Bytes read from storage, data and metadata. */
  public static final class BytesRead extends SumMetric {
    public BytesRead() {
      super(BYTES_READ, "prefetch: bytes read");
    }
  }

  /** Storage requests (positioned reads, reads after a seek). */
  public static final class ReadRequests extends SumMetric {
    public ReadRequests() {
      super(READ_REQUESTS, "prefetch: read requests");
    }
  }

  /** Time producers waited for queue room or memory budget. */
  public static final class ProducerWaitMs extends SumMetric {
    public ProducerWaitMs() {
      super(PRODUCER_WAIT_MS, "prefetch: producer wait time (ms)");
    }
  }

  /** Time tasks waited for producers in {@code next()}. */
  public static final class ConsumerWaitMs extends SumMetric {
    public ConsumerWaitMs() {
      super(CONSUMER_WAIT_MS, "prefetch: consumer wait time (ms)");
    }
  }

  /** Footer, tail and page index lookups served by the executor's metadata cache. */
  public static final class FooterCacheHits extends SumMetric {
    public FooterCacheHits() {
      super(FOOTER_CACHE_HITS, "prefetch: footer cache hits");
    }
  }

  /** Footer, tail and page index lookups that read the file. */
  public static final class FooterCacheMisses extends SumMetric {
    public FooterCacheMisses() {
      super(FOOTER_CACHE_MISSES, "prefetch: footer cache misses");
    }
  }

  /**
   * Read ranges planned (row groups or page slices of them, stripes or row-index strides): more
   * ranges than files is how one file is shared by producers.
   */
  public static final class ReadRanges extends SumMetric {
    public ReadRanges() {
      super(READ_RANGES, "prefetch: read ranges planned");
    }
  }

  /** Producers started by the readers (0 for a split read on the task's thread). */
  public static final class Producers extends SumMetric {
    public Producers() {
      super(PRODUCERS, "prefetch: producers started");
    }
  }
}
