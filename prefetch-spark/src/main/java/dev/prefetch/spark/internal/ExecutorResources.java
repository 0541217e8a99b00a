package dev.prefetch.spark.internal;

import dev.prefetch.cache.Cache;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.spark.PrefetchSparkOptions;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;

/**
 * The producer pool and the metadata cache of one executor JVM, shared by every task that reads
 * through the source.
 *
 * <p>Threads: {@link #executor()} has a fixed number of daemon threads ({@value
 * PrefetchSparkOptions#EXECUTOR_THREADS}, default the executor's cores), named {@code
 * prefetch-spark-producer-N}; every task's readers submit their producers to it. The pool and the
 * cache live as long as the JVM (an executor runs until its JVM exits) and are never shut down: a
 * reader's {@code close()} stops its own producers, which is all a task must undo. Instances are
 * made once per distinct setting pair (a JVM normally sees one) and held in a concurrent map, so
 * concurrent first tasks agree on one pool.
 */
public final class ExecutorResources {

  private static final ConcurrentMap<Settings, ExecutorResources> SHARED =
      new ConcurrentHashMap<>();
  private static final Pattern LOCAL_MASTER = Pattern.compile("local\\[(\\d+|\\*)(,\\d+)?]");

  private final Settings settings;
  private final ExecutorService executor;
  private final Cache cache;

  private ExecutorResources(Settings settings) {
    this.settings = settings;
    AtomicInteger ids = new AtomicInteger();
    ThreadFactory threads =
        runnable -> {
          Thread thread = new Thread(runnable, "prefetch-spark-producer-" + ids.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    this.executor =
        new ThreadPoolExecutor(
            settings.threads(),
            settings.threads(),
            0L,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            threads);
    this.cache =
        settings.cacheBytes() == 0
            ? null
            : MemoryCache.builder().maximumBytes(settings.cacheBytes()).build();
  }

  /** The resources for this JVM's Spark configuration. */
  public static ExecutorResources shared() {
    SparkEnv env = SparkEnv.get();
    return of(env == null ? Settings.defaults() : Settings.from(env.conf()));
  }

  /** The resources for {@code settings}, made on first use. */
  public static ExecutorResources of(Settings settings) {
    return SHARED.computeIfAbsent(settings, ExecutorResources::new);
  }

  public ExecutorService executor() {
    return executor;
  }

  /** The shared metadata cache, or null when the cache is disabled. */
  public Cache cache() {
    return cache;
  }

  public Settings settings() {
    return settings;
  }

  /**
   * How large the shared resources are.
   *
   * @param threads producer threads, at least 1
   * @param cacheBytes metadata cache bytes, 0 for no cache
   */
  public record Settings(int threads, long cacheBytes) {

    public Settings {
      if (threads < 1) {
        throw new IllegalArgumentException(
            PrefetchSparkOptions.EXECUTOR_THREADS + " must be at least 1: " + threads);
      }
      if (cacheBytes < 0) {
        throw new IllegalArgumentException(
            PrefetchSparkOptions.EXECUTOR_CACHE_BYTES + " must not be negative: " + cacheBytes);
      }
    }

    static Settings defaults() {
      return new Settings(
          Runtime.getRuntime().availableProcessors(),
          PrefetchSparkOptions.DEFAULT_EXECUTOR_CACHE_BYTES);
    }

    /** From a Spark configuration: the explicit setting, else the executor's cores. */
    static Settings from(SparkConf conf) {
      Objects.requireNonNull(conf, "conf is null");
      int threads;
      if (conf.contains(PrefetchSparkOptions.EXECUTOR_THREADS)) {
        threads =
            parseInt(
                PrefetchSparkOptions.EXECUTOR_THREADS,
                conf.get(PrefetchSparkOptions.EXECUTOR_THREADS));
      } else {
        threads = executorCores(conf);
      }
      long cacheBytes =
          conf.contains(PrefetchSparkOptions.EXECUTOR_CACHE_BYTES)
              ? conf.getSizeAsBytes(PrefetchSparkOptions.EXECUTOR_CACHE_BYTES)
              : PrefetchSparkOptions.DEFAULT_EXECUTOR_CACHE_BYTES;
      return new Settings(threads, cacheBytes);
    }

    private static int executorCores(SparkConf conf) {
      if (conf.contains("spark.executor.cores")) {
        return conf.getInt("spark.executor.cores", 1);
      }
      String master = conf.get("spark.master", "");
      Matcher local = LOCAL_MASTER.matcher(master);
      if (local.matches() && !local.group(1).equals("*")) {
        return Integer.parseInt(local.group(1));
      }
      if (master.equals("local")) {
        return 1;
      }
      return Runtime.getRuntime().availableProcessors();
    }

    private static int parseInt(String key, String value) {
      try {
        return Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + " must be an integer: '" + value + "'");
      }
    }
  }
}
