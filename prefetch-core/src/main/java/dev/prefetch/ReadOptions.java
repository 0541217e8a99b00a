package dev.prefetch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How one read behaves: batch size, prefetching, projection, selection. Immutable, validated once.
 *
 * <p>Built with {@link #builder()} or parsed from string properties with {@link #fromProperties}.
 * Property keys (defaults in brackets):
 *
 * <ul>
 *   <li>{@value #BATCH_SIZE} [4096]: rows per batch; a batch may be shorter at a range end.
 *   <li>{@value #COLUMNS} [all]: comma-separated projected columns (top-level names or dotted
 *       nested paths).
 *   <li>{@value #VERIFY_CHECKSUMS} [false]: verify page checksums where the file has them.
 *   <li>{@value #PREFETCH_ENABLED} [true]: false forces the single-reader path.
 *   <li>{@value #PREFETCH_PARALLELISM} [min(8, max(2, cores))]: producer threads.
 *   <li>{@value #PREFETCH_QUEUE_CAPACITY} [256]: batches per producer queue: how far a producer can
 *       work ahead of the consumer (which takes ranges in row order); memory is bounded by {@value
 *       #PREFETCH_MAX_BUFFERED_BYTES} as well.
 *   <li>{@value #PREFETCH_MAX_BUFFERED_BYTES} [256 MiB]: bound on decoded bytes in all queues.
 *   <li>{@value #PREFETCH_MIN_READ_BYTES} [10 MiB]: below this estimated compressed size of the
 *       selected columns, a single reader is used; {@value #ORC_PREFETCH_THRESHOLD} is an alias.
 *   <li>{@value #ORC_NATURAL_READ_SIZE} [8 MiB]: target compressed bytes of one ORC read range.
 *   <li>{@value #PARQUET_SPLIT_ROW_GROUPS} [true]: split large row groups into page-aligned ranges
 *       when there are fewer row groups than producers.
 *   <li>{@value #PARQUET_OFFSET_INDEX_CACHE} [false]: keep parsed OffsetIndex objects per reader.
 * </ul>
 *
 * Sizes accept a plain byte count or a suffix {@code k}, {@code m}, {@code g} (binary units,
 * optionally written {@code KiB}, {@code MB}, ...). An unknown {@code prefetch.*} or {@code read.*}
 * key, or a bad value for any key above, is an {@link IllegalArgumentException} that names the key.
 * Other keys ({@code parquet.*}, {@code orc.*}, ...) are kept in {@link #properties()} and handed
 * to the format library's configuration.
 */
public final class ReadOptions {

  public static final String BATCH_SIZE = "read.batch-size";
  public static final String COLUMNS = "read.columns";
  public static final String VERIFY_CHECKSUMS = "read.verify-checksums";
  public static final String PREFETCH_ENABLED = "prefetch.enabled";
  public static final String PREFETCH_PARALLELISM = "prefetch.parallelism";
  public static final String PREFETCH_QUEUE_CAPACITY = "prefetch.queue-capacity";
  public static final String PREFETCH_MAX_BUFFERED_BYTES = "prefetch.max-buffered-bytes";
  public static final String PREFETCH_MIN_READ_BYTES = "prefetch.min-read-bytes";
  public static final String ORC_PREFETCH_THRESHOLD =
      "orc.read.enable-prefetch-read-size-threshold";
  public static final String ORC_NATURAL_READ_SIZE = "orc.read.natural-read-size";
  public static final String PARQUET_SPLIT_ROW_GROUPS = "parquet.read.split-row-groups";
  public static final String PARQUET_OFFSET_INDEX_CACHE = "parquet.read.enable-offset-index-cache";

  public static final int DEFAULT_BATCH_SIZE_ROWS = 4096;
  public static final int DEFAULT_QUEUE_CAPACITY_BATCHES = 256;
  public static final long DEFAULT_MAX_BUFFERED_BYTES = 256L << 20;
  public static final long DEFAULT_MIN_READ_BYTES = 10L << 20;
  public static final long DEFAULT_NATURAL_READ_SIZE_BYTES = 8L << 20;

  /** Upper bound on producers per reader; more threads than this never pay on one file. */
  public static final int MAX_PARALLELISM = 256;

  public static final int MAX_QUEUE_CAPACITY_BATCHES = 1 << 16;

  private static final Set<String> KNOWN_KEYS =
      Set.of(
          BATCH_SIZE,
          COLUMNS,
          VERIFY_CHECKSUMS,
          PREFETCH_ENABLED,
          PREFETCH_PARALLELISM,
          PREFETCH_QUEUE_CAPACITY,
          PREFETCH_MAX_BUFFERED_BYTES,
          PREFETCH_MIN_READ_BYTES,
          ORC_PREFETCH_THRESHOLD,
          ORC_NATURAL_READ_SIZE,
          PARQUET_SPLIT_ROW_GROUPS,
          PARQUET_OFFSET_INDEX_CACHE);

  private final int batchSize;
  private final List<String> columns;
  private final boolean verifyChecksums;
  private final boolean prefetchEnabled;
  private final int parallelism;
  private final int queueCapacity;
  private final long maxBufferedBytes;
  private final long minReadBytes;
  private final long orcNaturalReadSizeBytes;
  private final boolean parquetSplitRowGroups;
  private final boolean parquetOffsetIndexCache;
  private final List<RowRange> rowRanges;
  private final Object filter;
  private final Map<String, String> properties;

  private ReadOptions(Builder b) {
    this.batchSize = b.batchSize;
    this.columns = List.copyOf(b.columns);
    this.verifyChecksums = b.verifyChecksums;
    this.prefetchEnabled = b.prefetchEnabled;
    this.parallelism = b.parallelism;
    this.queueCapacity = b.queueCapacity;
    this.maxBufferedBytes = b.maxBufferedBytes;
    this.minReadBytes = b.minReadBytes;
    this.orcNaturalReadSizeBytes = b.orcNaturalReadSizeBytes;
    this.parquetSplitRowGroups = b.parquetSplitRowGroups;
    this.parquetOffsetIndexCache = b.parquetOffsetIndexCache;
    this.rowRanges = b.rowRanges == null ? null : normalize(b.rowRanges);
    this.filter = b.filter;
    this.properties = Collections.unmodifiableMap(new TreeMap<>(b.properties));
  }

  /** The defaults. */
  public static ReadOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this value's settings. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.batchSize = batchSize;
    b.columns = columns;
    b.verifyChecksums = verifyChecksums;
    b.prefetchEnabled = prefetchEnabled;
    b.parallelism = parallelism;
    b.queueCapacity = queueCapacity;
    b.maxBufferedBytes = maxBufferedBytes;
    b.minReadBytes = minReadBytes;
    b.orcNaturalReadSizeBytes = orcNaturalReadSizeBytes;
    b.parquetSplitRowGroups = parquetSplitRowGroups;
    b.parquetOffsetIndexCache = parquetOffsetIndexCache;
    b.rowRanges = rowRanges;
    b.filter = filter;
    b.properties.putAll(properties);
    return b;
  }

  /** Parses string properties (see the class comment for keys and values). */
  public static ReadOptions fromProperties(Map<String, String> properties) {
    return builder().properties(properties).build();
  }

  /** Parses {@link Properties}; non-string entries are ignored. */
  public static ReadOptions fromProperties(Properties properties) {
    Map<String, String> map = new LinkedHashMap<>();
    for (String key : properties.stringPropertyNames()) {
      map.put(key, properties.getProperty(key));
    }
    return fromProperties(map);
  }

  /**
   * Parses the {@code read.*}, {@code prefetch.*}, {@code parquet.*} and {@code orc.*} entries of a
   * Hadoop configuration.
   */
  public static ReadOptions fromConfiguration(org.apache.hadoop.conf.Configuration conf) {
    Map<String, String> map = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : conf) {
      String key = entry.getKey();
      if (key.startsWith("read.")
          || key.startsWith("prefetch.")
          || key.startsWith("parquet.")
          || key.startsWith("orc.")) {
        map.put(key, entry.getValue());
      }
    }
    return fromProperties(map);
  }

  /** The default producer count for this machine: min(8, max(2, cores)). */
  public static int defaultParallelism() {
    return Math.min(8, Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  public int batchSize() {
    return batchSize;
  }

  /** Projected columns in order; empty means every top-level column. */
  public List<String> columns() {
    return columns;
  }

  public boolean verifyChecksums() {
    return verifyChecksums;
  }

  public boolean prefetchEnabled() {
    return prefetchEnabled;
  }

  public int parallelism() {
    return parallelism;
  }

  public int queueCapacity() {
    return queueCapacity;
  }

  public long maxBufferedBytes() {
    return maxBufferedBytes;
  }

  public long minReadBytes() {
    return minReadBytes;
  }

  public long orcNaturalReadSizeBytes() {
    return orcNaturalReadSizeBytes;
  }

  public boolean parquetSplitRowGroups() {
    return parquetSplitRowGroups;
  }

  public boolean parquetOffsetIndexCache() {
    return parquetOffsetIndexCache;
  }

  /**
   * The selected file rows, sorted and merged, or null for every row. Ranges are cut to the rows
   * that exist; an empty list selects nothing.
   */
  public List<RowRange> rowRanges() {
    return rowRanges;
  }

  /**
   * The format's native predicate for row-group / stripe / page pruning, or null: a Parquet {@code
   * FilterPredicate} or {@code FilterCompat.Filter}, an ORC {@code SearchArgument}. A format handed
   * a predicate of another library rejects it with an {@link IllegalArgumentException}.
   */
  public Object filter() {
    return filter;
  }

  /** Every property this value was built from, including keys for the format libraries. */
  public Map<String, String> properties() {
    return properties;
  }

  private static List<RowRange> normalize(List<RowRange> ranges) {
    List<RowRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(RowRange::start));
    List<RowRange> merged = new ArrayList<>();
    for (RowRange range : sorted) {
      if (range.count() == 0) {
        continue;
      }
      RowRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && range.start() <= last.end()) {
        merged.set(
            merged.size() - 1, new RowRange(last.start(), Math.max(last.end(), range.end())));
      } else {
        merged.add(range);
      }
    }
    return List.copyOf(merged);
  }

  @Override
  public String toString() {
    return "ReadOptions{batchSize="
        + batchSize
        + ", columns="
        + columns
        + ", prefetch="
        + prefetchEnabled
        + ", parallelism="
        + parallelism
        + ", queueCapacity="
        + queueCapacity
        + ", maxBufferedBytes="
        + maxBufferedBytes
        + ", minReadBytes="
        + minReadBytes
        + ", orcNaturalReadSize="
        + orcNaturalReadSizeBytes
        + ", parquetSplitRowGroups="
        + parquetSplitRowGroups
        + ", rowRanges="
        + rowRanges
        + ", filter="
        + filter
        + "}";
  }

  /** Builds {@link ReadOptions}; every setter validates its value. */
  public static final class Builder {
    private int batchSize = DEFAULT_BATCH_SIZE_ROWS;
    private List<String> columns = List.of();
    private boolean verifyChecksums;
    private boolean prefetchEnabled = true;
    private int parallelism = defaultParallelism();
    private int queueCapacity = DEFAULT_QUEUE_CAPACITY_BATCHES;
    private long maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES;
    private long minReadBytes = DEFAULT_MIN_READ_BYTES;
    private long orcNaturalReadSizeBytes = DEFAULT_NATURAL_READ_SIZE_BYTES;
    private boolean parquetSplitRowGroups = true;
    private boolean parquetOffsetIndexCache;
    private List<RowRange> rowRanges;
    private Object filter;
    private final Map<String, String> properties = new LinkedHashMap<>();

    private Builder() {}

    public Builder batchSize(int rows) {
      this.batchSize = checkRange(BATCH_SIZE, rows, 1, Integer.MAX_VALUE - 8);
      return this;
    }

    /** Projects these columns, in this order; none means all top-level columns. */
    public Builder columns(List<String> names) {
      List<String> copy = new ArrayList<>();
      for (String name : names) {
        Objects.requireNonNull(name, "column name is null");
        String trimmed = name.trim();
        if (trimmed.isEmpty()) {
          throw new IllegalArgumentException(COLUMNS + ": empty column name in " + names);
        }
        copy.add(trimmed);
      }
      this.columns = copy;
      return this;
    }

    public Builder columns(String... names) {
      return columns(List.of(names));
    }

    public Builder verifyChecksums(boolean verify) {
      this.verifyChecksums = verify;
      return this;
    }

    public Builder prefetchEnabled(boolean enabled) {
      this.prefetchEnabled = enabled;
      return this;
    }

    public Builder parallelism(int producers) {
      this.parallelism = checkRange(PREFETCH_PARALLELISM, producers, 1, MAX_PARALLELISM);
      return this;
    }

    public Builder queueCapacity(int batches) {
      this.queueCapacity =
          checkRange(PREFETCH_QUEUE_CAPACITY, batches, 1, MAX_QUEUE_CAPACITY_BATCHES);
      return this;
    }

    public Builder maxBufferedBytes(long bytes) {
      this.maxBufferedBytes = checkRange(PREFETCH_MAX_BUFFERED_BYTES, bytes, 1, Long.MAX_VALUE);
      return this;
    }

    public Builder minReadBytes(long bytes) {
      this.minReadBytes = checkRange(PREFETCH_MIN_READ_BYTES, bytes, 0, Long.MAX_VALUE);
      return this;
    }

    public Builder orcNaturalReadSizeBytes(long bytes) {
      this.orcNaturalReadSizeBytes = checkRange(ORC_NATURAL_READ_SIZE, bytes, 1, Long.MAX_VALUE);
      return this;
    }

    public Builder parquetSplitRowGroups(boolean split) {
      this.parquetSplitRowGroups = split;
      return this;
    }

    public Builder parquetOffsetIndexCache(boolean enabled) {
      this.parquetOffsetIndexCache = enabled;
      return this;
    }

    /** Reads only these file rows (null: all rows). Ranges may overlap; they are merged. */
    public Builder rowRanges(List<RowRange> ranges) {
      this.rowRanges = ranges == null ? null : List.copyOf(ranges);
      return this;
    }

    /** The format's native pruning predicate; see {@link ReadOptions#filter()}. */
    public Builder filter(Object predicate) {
      this.filter = predicate;
      return this;
    }

    /** Sets one property, parsing it when it is one of the keys of {@link ReadOptions}. */
    public Builder property(String key, String value) {
      Objects.requireNonNull(key, "property key is null");
      if (value == null) {
        throw new IllegalArgumentException(key + ": value is null");
      }
      String v = value.trim();
      switch (key) {
        case BATCH_SIZE -> batchSize(parseInt(key, v));
        case COLUMNS -> columns(v.isEmpty() ? List.of() : List.of(v.split(",")));
        case VERIFY_CHECKSUMS -> verifyChecksums(parseBoolean(key, v));
        case PREFETCH_ENABLED -> prefetchEnabled(parseBoolean(key, v));
        case PREFETCH_PARALLELISM -> parallelism(parseInt(key, v));
        case PREFETCH_QUEUE_CAPACITY -> queueCapacity(parseInt(key, v));
        case PREFETCH_MAX_BUFFERED_BYTES -> maxBufferedBytes(parseBytes(key, v));
        case PREFETCH_MIN_READ_BYTES, ORC_PREFETCH_THRESHOLD -> minReadBytes(parseBytes(key, v));
        case ORC_NATURAL_READ_SIZE -> orcNaturalReadSizeBytes(parseBytes(key, v));
        case PARQUET_SPLIT_ROW_GROUPS -> parquetSplitRowGroups(parseBoolean(key, v));
        case PARQUET_OFFSET_INDEX_CACHE -> parquetOffsetIndexCache(parseBoolean(key, v));
        default -> {
          if (key.startsWith("prefetch.") || key.startsWith("read.")) {
            throw new IllegalArgumentException(
                "unknown option '" + key + "'; known options: " + new TreeSet<>(KNOWN_KEYS));
          }
        }
      }
      properties.put(key, value);
      return this;
    }

    /** Sets every entry of {@code values} with {@link #property}. */
    public Builder properties(Map<String, String> values) {
      for (Map.Entry<String, String> entry : values.entrySet()) {
        property(entry.getKey(), entry.getValue());
      }
      return this;
    }

    public ReadOptions build() {
      return new ReadOptions(this);
    }
  }

  private static int checkRange(String key, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "]: " + value);
    }
    return value;
  }

  private static long checkRange(String key, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "]: " + value);
    }
    return value;
  }

  private static boolean parseBoolean(String key, String value) {
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    if (value.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(key + " must be true or false: '" + value + "'");
  }

  private static int parseInt(String key, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer: '" + value + "'");
    }
  }

  /** Parses a byte size: digits with an optional binary suffix (k, m, g, t; kb/kib ...). */
  static long parseBytes(String key, String value) {
    String v = value.toLowerCase(Locale.ROOT).replace("_", "").trim();
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    String unit = v.substring(end).trim();
    if (end == 0) {
      throw new IllegalArgumentException(
          key + " must be a byte size such as 1048576 or 64m: '" + value + "'");
    }
    int shift =
        switch (unit) {
          case "", "b" -> 0;
          case "k", "kb", "kib" -> 10;
          case "m", "mb", "mib" -> 20;
          case "g", "gb", "gib" -> 30;
          case "t", "tb", "tib" -> 40;
          default ->
              throw new IllegalArgumentException(
                  key + " has an unknown size unit '" + unit + "': '" + value + "'");
        };
    try {
      long number = Long.parseLong(v.substring(0, end));
      if (number > (Long.MAX_VALUE >> shift)) {
        throw new IllegalArgumentException(key + " is too large: '" + value + "'");
      }
      return number << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is too large: '" + value + "'");
    }
  }
}
