package dev.prefetch.spark;

import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The options and settings of the {@code prefetch} source.
 *
 * <p>Per read: every key of {@link ReadOptions} ({@code prefetch.parallelism}, {@code
 * prefetch.queue-capacity}, {@code read.batch-size}, {@code parquet.*}, {@code orc.*}, ...), given
 * as {@code .option(key, value)} or as a session setting with the prefix {@value #SESSION_PREFIX}:
 * {@code spark.prefetch.parallelism} stands for {@code prefetch.parallelism}, {@code
 * spark.prefetch.read.batch-size} for {@code read.batch-size}. An option wins over a session
 * setting. The projection ({@code read.columns}) and the pruning predicate come from Spark's plan
 * and cannot be set.
 *
 * <p>Per scan, of the source itself: {@value #STREAM_FILES} (default true), as an option or a
 * session setting, whether a task whose partition holds several files (Spark packs small files into
 * one task, up to {@code spark.sql.files.maxPartitionBytes}) reads them as one ordered stream, the
 * next files' footers and first ranges read by producers while the current file drains; false reads
 * them one by one, a reader per file. Either way the rows, {@code ignoreCorruptFiles}, {@code
 * ignoreMissingFiles}, {@code input_file_name()} and the metrics are Spark's; a file the stream
 * cannot serve (one lacking a column of the read, or refusing the pushed predicate) and the files
 * after it in the task are read one by one, as are a task's files whose names do not all name one
 * format when a predicate is pushed.
 *
 * <p>Per executor JVM (Spark configuration, read where the tasks run): {@value #EXECUTOR_THREADS}
 * producer threads shared by every task (default: the executor's cores) and {@value
 * #EXECUTOR_CACHE_BYTES} for the shared metadata cache (default 64 MiB, 0 for none).
 */
public final class PrefetchSparkOptions {

  /**
   * Session settings with this prefix are read options ({@code spark.prefetch.X} = {@code
   * prefetch.X}).
   */
  public static final String SESSION_PREFIX = "spark.prefetch.";

  /** Producer threads per executor JVM, shared by all tasks. */
  public static final String EXECUTOR_THREADS = "spark.prefetch.executor.threads";

  /** Bytes of the metadata (footer / tail) cache per executor JVM; 0 disables it. */
  public static final String EXECUTOR_CACHE_BYTES = "spark.prefetch.executor.cache-bytes";

  public static final long DEFAULT_EXECUTOR_CACHE_BYTES = 64L << 20;

  /**
   * Whether a task reads the several files of its partition as one stream (an option or a session
   * setting; default true).
   */
  public static final String STREAM_FILES = "spark.prefetch.stream-files";

  private PrefetchSparkOptions() {}

  /**
   * The read properties of one scan: session settings under {@value #SESSION_PREFIX} (without the
   * executor settings), then the source's options, which win. Keys are lower-cased as Spark's
   * option maps are. Validated by {@link ReadOptions#fromProperties} and, for the formats' keys,
   * {@link Readers#checkOptions}, so a bad key or value fails when the scan is planned, naming the
   * key.
   */
  public static Map<String, String> readProperties(
      Map<String, String> sessionConf, Map<String, String> sourceOptions) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : sessionConf.entrySet()) {
      String key = entry.getKey().toLowerCase(Locale.ROOT);
      if (!key.startsWith(SESSION_PREFIX)
          || key.startsWith(SESSION_PREFIX + "executor.")
          || key.equals(STREAM_FILES)) {
        continue;
      }
      String rest = key.substring(SESSION_PREFIX.length());
      String readKey = isReadKey(rest) ? rest : "prefetch." + rest;
      properties.put(readKey, entry.getValue());
    }
    for (Map.Entry<String, String> entry : sourceOptions.entrySet()) {
      String key = entry.getKey().toLowerCase(Locale.ROOT);
      if (isReadKey(key)) {
        properties.put(key, entry.getValue());
      }
    }
    if (properties.containsKey(ReadOptions.COLUMNS)) {
      throw new IllegalArgumentException(
          ReadOptions.COLUMNS
              + " cannot be set on the prefetch"
              + " source: Spark's plan chooses the columns (select them in the query)");
    }
    Readers.checkOptions(ReadOptions.fromProperties(properties));
    return properties;
  }

  /**
   * Whether a scan reads a task's several files as one stream: {@value #STREAM_FILES} of the
   * source's options, else of the session's settings, else true.
   *
   * @throws IllegalArgumentException when the value is neither true nor false
   */
  public static boolean streamFiles(
      Map<String, String> sessionConf, Map<String, String> sourceOptions) {
    String value = null;
    for (Map.Entry<String, String> entry : sessionConf.entrySet()) {
      if (entry.getKey().equalsIgnoreCase(STREAM_FILES)) {
        value = entry.getValue();
      }
    }
    for (Map.Entry<String, String> entry : sourceOptions.entrySet()) {
      if (entry.getKey().equalsIgnoreCase(STREAM_FILES)) {
        value = entry.getValue();
      }
    }
    if (value == null) {
      return true;
    }
    String trimmed = value.trim();
    if (trimmed.equalsIgnoreCase("true")) {
      return true;
    }
    if (trimmed.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(STREAM_FILES + " must be true or false: '" + value + "'");
  }

  private static boolean isReadKey(String key) {
    return key.startsWith("prefetch.")
        || key.startsWith("read.")
        || key.startsWith("parquet.")
        || key.startsWith("orc.");
  }
}
