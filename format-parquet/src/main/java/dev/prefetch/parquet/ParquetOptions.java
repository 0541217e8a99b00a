package dev.prefetch.parquet;

import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.footer.RowGroupSelection;
import dev.prefetch.spi.OptionValues;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Parquet format's settings of one read, parsed from the {@code parquet.*} entries of {@link
 * ReadOptions#formatProperties()} and validated once. Keys (defaults in brackets):
 *
 * <ul>
 *   <li>{@value #SPLIT_ROW_GROUPS} [true]: split a large row group into page-aligned ranges when
 *       there are fewer row groups than producers, or when it is longer than a producer can work
 *       ahead ({@link dev.prefetch.spi.RangeBudget}).
 *   <li>{@value #OFFSET_INDEX_CACHE} [false]: keep parsed OffsetIndex objects per reader.
 *   <li>{@value #INT96_TIMESTAMP_UNIT} [micros]: the unit INT96 timestamps map to: {@code micros}
 *       (as Spark and DuckDB read them: every year from 0001 to 9999 and beyond fits) or {@code
 *       nanos} (years 1677 to 2262; a value outside is an error naming the file).
 *   <li>{@value #ROW_GROUPS} [all]: comma-separated row group positions to read (checked against
 *       the file when it is planned).
 *   <li>{@value #DICTIONARY_VECTORS} [all]: which top-level string and binary columns come as
 *       {@link dev.prefetch.batch.DictionaryVector}s in the row groups where every page of the
 *       column is dictionary-encoded: {@code all}, {@code none}, or a comma-separated list of
 *       column names. Other columns and row groups come as plain vectors.
 *   <li>{@value #COALESCE_GAP_BYTES} [256 KiB]: off the local filesystem, the byte ranges of one
 *       range's read (its column chunks, or its pages and dictionaries) that lie at most this far
 *       apart are fetched as one request, the gap read and dropped; 0 fetches each run of adjacent
 *       bytes on its own. At most {@value #MAX_COALESCE_GAP_BYTES} bytes.
 *   <li>{@value #MAX_REQUEST_BYTES} [64 MiB]: the longest request ranges are joined into (a single
 *       longer chunk is still one request), from 1 byte to {@value #MAX_MAX_REQUEST_BYTES}.
 * </ul>
 *
 * Every other {@code parquet.*} entry is handed to parquet-hadoop's configuration ({@link
 * #libraryProperties()}).
 *
 * @param splitRowGroups {@value #SPLIT_ROW_GROUPS}
 * @param offsetIndexCache {@value #OFFSET_INDEX_CACHE}
 * @param int96Unit {@value #INT96_TIMESTAMP_UNIT}: MICROS or NANOS
 * @param dictionaryVectors {@value #DICTIONARY_VECTORS}
 * @param coalesceGapBytes {@value #COALESCE_GAP_BYTES}
 * @param maxRequestBytes {@value #MAX_REQUEST_BYTES}
 * @param libraryProperties the {@code parquet.*} entries that are not this class's keys
 */
public record ParquetOptions(
    boolean splitRowGroups,
    boolean offsetIndexCache,
    DataType.TimeUnit int96Unit,
    DictionaryVectors dictionaryVectors,
    long coalesceGapBytes,
    long maxRequestBytes,
    Map<String, String> libraryProperties) {

  public static final String SPLIT_ROW_GROUPS = "parquet.read.split-row-groups";
  public static final String OFFSET_INDEX_CACHE = "parquet.read.enable-offset-index-cache";
  public static final String INT96_TIMESTAMP_UNIT = "parquet.read.int96-timestamp-unit";
  public static final String ROW_GROUPS = RowGroupSelection.ROW_GROUPS_PROPERTY;
  public static final String DICTIONARY_VECTORS = "parquet.read.dictionary-vectors";
  public static final String COALESCE_GAP_BYTES = "parquet.read.coalesce-gap-bytes";
  public static final String MAX_REQUEST_BYTES = "parquet.read.max-request-bytes";

  /**
   * The default of {@value #COALESCE_GAP_BYTES}: 256 KiB. On the remote model (20 ms to first byte,
   * 64 MiB/s per stream) 8 producers scanned the scan table as fast with 0, 256 KiB and 1 MiB,
   * since a range's requests already go out together; 1 MiB read 23% more bytes, 256 KiB 2% more
   * for 28% fewer requests (docs/BENCHMARKS.md).
   */
  public static final long DEFAULT_COALESCE_GAP_BYTES = 256L << 10;

  /** The default of {@value #MAX_REQUEST_BYTES}: 64 MiB. */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 64L << 20;

  /** The largest {@value #COALESCE_GAP_BYTES}: 1 GiB. */
  public static final long MAX_COALESCE_GAP_BYTES = 1L << 30;

  /** The largest {@value #MAX_REQUEST_BYTES}: 1 GiB, well inside one Java array. */
  public static final long MAX_MAX_REQUEST_BYTES = 1L << 30;

  /**
   * The columns read as dictionary vectors where their chunk allows ({@value #DICTIONARY_VECTORS}).
   *
   * @param all every string and binary column
   * @param columns the top-level column names, when not {@code all}; empty for none
   */
  public record DictionaryVectors(boolean all, Set<String> columns) {

    public static final DictionaryVectors ALL = new DictionaryVectors(true, Set.of());
    public static final DictionaryVectors NONE = new DictionaryVectors(false, Set.of());

    public DictionaryVectors {
      columns = Set.copyOf(columns);
      if (all && !columns.isEmpty()) {
        throw new IllegalArgumentException("all columns or a list, not both: " + columns);
      }
    }

    /** Whether top-level column {@code name} is read as dictionary vectors where it can be. */
    public boolean includes(String name) {
      return all || columns.contains(name);
    }

    static DictionaryVectors parse(String value) {
      String trimmed = value.trim();
      if (trimmed.equalsIgnoreCase("all")) {
        return ALL;
      }
      if (trimmed.equalsIgnoreCase("none")) {
        return NONE;
      }
      Set<String> names = new java.util.LinkedHashSet<>();
      for (String name : trimmed.split(",", -1)) {
        if (name.isBlank()) {
          throw new IllegalArgumentException(
              DICTIONARY_VECTORS
                  + " must be all, none or a comma-separated list of column names: '"
                  + value
                  + "'");
        }
        names.add(name.trim());
      }
      return new DictionaryVectors(false, names);
    }
  }

  private static final String PREFIX = "parquet.";
  private static final Set<String> OWN_KEYS =
      Set.of(
          SPLIT_ROW_GROUPS,
          OFFSET_INDEX_CACHE,
          INT96_TIMESTAMP_UNIT,
          ROW_GROUPS,
          DICTIONARY_VECTORS,
          COALESCE_GAP_BYTES,
          MAX_REQUEST_BYTES);

  public ParquetOptions {
    Objects.requireNonNull(int96Unit, "int96Unit is null");
    Objects.requireNonNull(dictionaryVectors, "dictionaryVectors is null");
    if (int96Unit != DataType.TimeUnit.MICROS && int96Unit != DataType.TimeUnit.NANOS) {
      throw new IllegalArgumentException(
          INT96_TIMESTAMP_UNIT + " must be micros or nanos: " + int96Unit);
    }
    OptionValues.checkRange(COALESCE_GAP_BYTES, coalesceGapBytes, 0, MAX_COALESCE_GAP_BYTES);
    OptionValues.checkRange(MAX_REQUEST_BYTES, maxRequestBytes, 1, MAX_MAX_REQUEST_BYTES);
    for (String key : libraryProperties.keySet()) {
      if (!key.startsWith(PREFIX) || OWN_KEYS.contains(key)) {
        throw new IllegalArgumentException("not a parquet-hadoop property: " + key);
      }
    }
    libraryProperties = Collections.unmodifiableMap(new TreeMap<>(libraryProperties));
  }

  /** The settings of a read that sets none. */
  public static ParquetOptions defaults() {
    return new ParquetOptions(
        true,
        false,
        DataType.TimeUnit.MICROS,
        DictionaryVectors.ALL,
        DEFAULT_COALESCE_GAP_BYTES,
        DEFAULT_MAX_REQUEST_BYTES,
        Map.of());
  }

  /** The settings of {@code options}. */
  public static ParquetOptions from(ReadOptions options) {
    return from(options.formatProperties());
  }

  /**
   * Parses the {@code parquet.*} entries of {@code properties}; other entries are ignored.
   *
   * @throws IllegalArgumentException for a bad value, naming the key and the value
   */
  public static ParquetOptions from(Map<String, String> properties) {
    boolean split = true;
    boolean offsetIndexCache = false;
    DataType.TimeUnit int96Unit = DataType.TimeUnit.MICROS;
    DictionaryVectors dictionaryVectors = DictionaryVectors.ALL;
    long coalesceGap = DEFAULT_COALESCE_GAP_BYTES;
    long maxRequest = DEFAULT_MAX_REQUEST_BYTES;
    Map<String, String> library = new TreeMap<>();
    for (Map.Entry<String, String> entry : properties.entrySet()) {
      String key = entry.getKey();
      String value = entry.getValue();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      switch (key) {
        case SPLIT_ROW_GROUPS -> split = OptionValues.parseBoolean(key, value);
        case OFFSET_INDEX_CACHE -> offsetIndexCache = OptionValues.parseBoolean(key, value);
        case INT96_TIMESTAMP_UNIT -> int96Unit = int96Unit(value);
        case ROW_GROUPS -> RowGroupSelection.parse(value); // throws on a bad list
        case DICTIONARY_VECTORS -> dictionaryVectors = DictionaryVectors.parse(value);
        case COALESCE_GAP_BYTES -> coalesceGap = bytes(key, value, 0, MAX_COALESCE_GAP_BYTES);
        case MAX_REQUEST_BYTES -> maxRequest = bytes(key, value, 1, MAX_MAX_REQUEST_BYTES);
        default -> library.put(key, value);
      }
    }
    return new ParquetOptions(
        split, offsetIndexCache, int96Unit, dictionaryVectors, coalesceGap, maxRequest, library);
  }

  /** A byte size of {@code key} in {@code [min, max]}, the message quoting the value as given. */
  private static long bytes(String key, String value, long min, long max) {
    long bytes = OptionValues.parseBytes(key, value);
    if (bytes < min || bytes > max) {
      throw new IllegalArgumentException(
          key + " must be in [" + min + ", " + max + "] bytes: '" + value + "'");
    }
    return bytes;
  }

  private static DataType.TimeUnit int96Unit(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "micros" -> DataType.TimeUnit.MICROS;
      case "nanos" -> DataType.TimeUnit.NANOS;
      default ->
          throw new IllegalArgumentException(
              INT96_TIMESTAMP_UNIT + " must be micros or nanos: '" + value + "'");
    };
  }
}
