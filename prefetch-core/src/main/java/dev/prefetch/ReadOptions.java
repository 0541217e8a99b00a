package dev.prefetch;

import static dev.prefetch.spi.OptionValues.checkRange;
import static dev.prefetch.spi.OptionValues.parseBoolean;
import static dev.prefetch.spi.OptionValues.parseBytes;
import static dev.prefetch.spi.OptionValues.parseInt;

import dev.prefetch.spi.OptionValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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
 *       selected columns, a single reader is used.
 *   <li>{@value #PREFETCH_READ_AHEAD} [true]: where a format reads ahead (Parquet off the local
 *       filesystem), each producer claims its next range when it starts the current one and its
 *       reads are issued then, to overlap with the current range's decoding.
 *   <li>{@value #WHOLE_FILE_BYTES} [3 MiB]: a file of at most this many bytes is read whole, in one
 *       request, the first time it is needed (its footer or tail), and its plan and range readers
 *       read it from memory; 0 reads every file by parts.
 * </ul>
 *
 * Sizes accept a plain byte count or a suffix {@code k}, {@code m}, {@code g} (binary units,
 * optionally written {@code KiB}, {@code MB}, ...; see {@link OptionValues}). An unknown {@code
 * prefetch.*} or {@code read.*} key, or a bad value for any key above, is an {@link
 * IllegalArgumentException} that names the key.
 *
 * <p>Every other key is a format's: kept unparsed in {@link #formatProperties()}, parsed and
 * validated by the format (its option class, such as {@code ParquetOptions} for {@code parquet.*}
 * or {@code OrcOptions} for {@code orc.*}), which hands the keys it does not know itself to its
 * library's configuration. A bad value of a format's key is an {@link IllegalArgumentException}
 * naming the key when a reader opens ({@code Readers.open} checks the entries of every format on
 * the class path, whatever the file's format) or earlier through {@code Readers.checkOptions}.
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
  public static final String PREFETCH_READ_AHEAD = "prefetch.read-ahead";
  public static final String WHOLE_FILE_BYTES = "read.whole-file-bytes";

  public static final int DEFAULT_BATCH_SIZE_ROWS = 4096;
  public static final int DEFAULT_QUEUE_CAPACITY_BATCHES = 256;
  public static final long DEFAULT_MAX_BUFFERED_BYTES = 256L << 20;
  public static final long DEFAULT_MIN_READ_BYTES = 10L << 20;

  /**
   * Files up to this size are read whole: a data lake's small files then cost one request each
   * instead of a footer's and a row group's (and a first byte's wait each on an object store).
   */
  public static final long DEFAULT_WHOLE_FILE_BYTES = 3L << 20;

  /** The largest whole-file read: one Java array. */
  public static final long MAX_WHOLE_FILE_BYTES = 1L << 30;

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
          PREFETCH_READ_AHEAD,
          WHOLE_FILE_BYTES);

  private final int batchSize;
  private final List<String> columns;
  private final boolean verifyChecksums;
  private final boolean prefetchEnabled;
  private final int parallelism;
  private final int queueCapacity;
  private final long maxBufferedBytes;
  private final long minReadBytes;
  private final long wholeFileBytes;
  private final boolean readAhead;
  private final List<RowRange> rowRanges;
  private final Object filter;
  private final Map<String, String> properties;
  private final Map<String, String> formatProperties;

  private ReadOptions(Builder b) {
    this.batchSize = b.batchSize;
    this.columns = List.copyOf(b.columns);
    this.verifyChecksums = b.verifyChecksums;
    this.prefetchEnabled = b.prefetchEnabled;
    this.parallelism = b.parallelism;
    this.queueCapacity = b.queueCapacity;
    this.maxBufferedBytes = b.maxBufferedBytes;
    this.minReadBytes = b.minReadBytes;
    this.wholeFileBytes = b.wholeFileBytes;
    this.readAhead = b.readAhead;
    this.rowRanges = b.rowRanges == null ? null : RowRange.normalize(b.rowRanges);
    this.filter = b.filter;
    this.properties = Collections.unmodifiableMap(new TreeMap<>(b.properties));
    Map<String, String> formats = new TreeMap<>();
    for (Map.Entry<String, String> entry : this.properties.entrySet()) {
      if (!isCoreKey(entry.getKey())) {
        formats.put(entry.getKey(), entry.getValue());
      }
    }
    this.formatProperties = Collections.unmodifiableMap(formats);
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
    b.wholeFileBytes = wholeFileBytes;
    b.readAhead = readAhead;
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
   * Parses the {@code read.*} and {@code prefetch.*} entries of a Hadoop configuration, and the
   * entries named after a format on the class path ({@code parquet.*}, {@code orc.*}: the format's
   * {@link dev.prefetch.spi.FileFormat#name()} and a dot).
   */
  public static ReadOptions fromConfiguration(org.apache.hadoop.conf.Configuration conf) {
    List<String> prefixes = new ArrayList<>(List.of("read.", "prefetch."));
    for (dev.prefetch.spi.FileFormat format :
        java.util.ServiceLoader.load(
            dev.prefetch.spi.FileFormat.class, ReadOptions.class.getClassLoader())) {
      prefixes.add(format.name() + ".");
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : conf) {
      for (String prefix : prefixes) {
        if (entry.getKey().startsWith(prefix)) {
          map.put(entry.getKey(), entry.getValue());
          break;
        }
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

  /**
   * Whether producers read their next range ahead where the format can ({@value
   * #PREFETCH_READ_AHEAD}).
   */
  public boolean readAhead() {
    return readAhead;
  }

  /** Files of at most this many bytes are read whole ({@value #WHOLE_FILE_BYTES}; 0: none). */
  public long wholeFileBytes() {
    return wholeFileBytes;
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

  /** Every property this value was built from, including keys for the formats. */
  public Map<String, String> properties() {
    return properties;
  }

  /**
   * The properties that are not {@link ReadOptions}' own ({@code read.*}, {@code prefetch.*}),
   * sorted by key and unparsed: each format parses and validates its own ({@code parquet.*}, {@code
   * orc.*}) and hands the rest of its prefix to its library.
   */
  public Map<String, String> formatProperties() {
    return formatProperties;
  }

  private static boolean isCoreKey(String key) {
    return key.startsWith("prefetch.") || key.startsWith("read.");
  }

  @Override
  public String toString() {
    return String.format(
        "ReadOptions{batchSize=%d, columns=%s, prefetch=%b, parallelism=%d, queueCapacity=%d,"
            + " maxBufferedBytes=%d, minReadBytes=%d, readAhead=%b, wholeFileBytes=%d,"
            + " formatProperties=%s, rowRanges=%s, filter=%s}",
        batchSize,
        columns,
        prefetchEnabled,
        parallelism,
        queueCapacity,
        maxBufferedBytes,
        minReadBytes,
        readAhead,
        wholeFileBytes,
        formatProperties,
        rowRanges,
        filter);
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
    private long wholeFileBytes = DEFAULT_WHOLE_FILE_BYTES;
    private boolean readAhead = true;
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

    public Builder readAhead(boolean enabled) {
      this.readAhead = enabled;
      return this;
    }

    public Builder wholeFileBytes(long bytes) {
      this.wholeFileBytes = checkRange(WHOLE_FILE_BYTES, bytes, 0, MAX_WHOLE_FILE_BYTES);
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

    /**
     * Sets one property, parsing it when it is one of the keys of {@link ReadOptions}; a format's
     * key is kept unparsed for the format (see {@link ReadOptions#formatProperties()}).
     */
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
        case PREFETCH_MIN_READ_BYTES -> minReadBytes(parseBytes(key, v));
        case WHOLE_FILE_BYTES -> wholeFileBytes(parseBytes(key, v));
        case PREFETCH_READ_AHEAD -> readAhead(parseBoolean(key, v));
        default -> {
          if (isCoreKey(key)) {
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
}
