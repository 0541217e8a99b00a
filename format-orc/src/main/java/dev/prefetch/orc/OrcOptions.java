package dev.prefetch.orc;

import dev.prefetch.ReadOptions;
import dev.prefetch.spi.OptionValues;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ORC format's settings of one read, parsed from the {@code orc.*} entries of {@link
 * ReadOptions#formatProperties()} and validated once. Keys (defaults in brackets):
 *
 * <ul>
 *   <li>{@value #NATURAL_READ_SIZE} [8 MiB]: target compressed bytes of the selected columns in one
 *       read range.
 *   <li>{@value #PREFETCH_THRESHOLD} [{@code prefetch.min-read-bytes}]: below this estimated
 *       compressed size an ORC file is read by a single reader (Paimon's name for {@code
 *       prefetch.min-read-bytes}; when set, it wins over that key for ORC files).
 *   <li>{@value #DICTIONARY_VECTORS} [none]: which string, char and varchar columns come as {@link
 *       dev.prefetch.batch.DictionaryVector}s in the stripes where the column is dictionary-encoded
 *       (every batch of a stripe sharing its one dictionary): {@code all}, {@code none}, or a
 *       comma-separated list of output column names. Other columns and stripes come as plain
 *       vectors.
 * </ul>
 *
 * Sizes as {@link OptionValues#parseBytes}. Every other {@code orc.*} entry is handed to orc-core's
 * configuration ({@link #libraryProperties()}).
 *
 * @param naturalReadSizeBytes {@value #NATURAL_READ_SIZE}
 * @param prefetchThresholdBytes {@value #PREFETCH_THRESHOLD}, empty when not set
 * @param dictionaryVectors {@value #DICTIONARY_VECTORS}
 * @param libraryProperties the {@code orc.*} entries that are not this class's keys
 */
public record OrcOptions(
    long naturalReadSizeBytes,
    OptionalLong prefetchThresholdBytes,
    DictionaryVectors dictionaryVectors,
    Map<String, String> libraryProperties) {

  public static final String NATURAL_READ_SIZE = "orc.read.natural-read-size";
  public static final String PREFETCH_THRESHOLD = "orc.read.enable-prefetch-read-size-threshold";
  public static final String DICTIONARY_VECTORS = "orc.read.dictionary-vectors";
  public static final long DEFAULT_NATURAL_READ_SIZE_BYTES = 8L << 20;

  private static final String PREFIX = "orc.";

  /**
   * The columns read as dictionary vectors where their stripe allows ({@value
   * #DICTIONARY_VECTORS}).
   *
   * @param all every string column
   * @param columns the output column names, when not {@code all}; empty for none
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

    /** Whether output column {@code name} is read as dictionary vectors where it can be. */
    public boolean includes(String name) {
      return all || columns.contains(name);
    }

    /** Parses a value of {@value #DICTIONARY_VECTORS}. */
    static DictionaryVectors parse(String value) {
      String v = value.trim();
      if (v.equalsIgnoreCase("all")) {
        return ALL;
      }
      if (v.equalsIgnoreCase("none") || v.isEmpty()) {
        return NONE;
      }
      Set<String> names = new LinkedHashSet<>();
      for (String name : v.split(",", -1)) {
        String trimmed = name.trim();
        if (trimmed.isEmpty()) {
          throw new IllegalArgumentException(
              DICTIONARY_VECTORS
                  + " must be all, none or a comma-separated list of column names: '"
                  + value
                  + "'");
        }
        names.add(trimmed);
      }
      return new DictionaryVectors(false, names);
    }
  }

  public OrcOptions {
    OptionValues.checkRange(NATURAL_READ_SIZE, naturalReadSizeBytes, 1, Long.MAX_VALUE);
    Objects.requireNonNull(prefetchThresholdBytes, "prefetchThresholdBytes is null");
    Objects.requireNonNull(dictionaryVectors, "dictionaryVectors is null");
    if (prefetchThresholdBytes.isPresent()) {
      OptionValues.checkRange(
          PREFETCH_THRESHOLD, prefetchThresholdBytes.getAsLong(), 0, Long.MAX_VALUE);
    }
    for (String key : libraryProperties.keySet()) {
      if (!key.startsWith(PREFIX)
          || key.equals(NATURAL_READ_SIZE)
          || key.equals(PREFETCH_THRESHOLD)
          || key.equals(DICTIONARY_VECTORS)) {
        throw new IllegalArgumentException("not an orc-core property: " + key);
      }
    }
    libraryProperties = Collections.unmodifiableMap(new TreeMap<>(libraryProperties));
  }

  /** The settings of a read that sets none. */
  public static OrcOptions defaults() {
    return new OrcOptions(
        DEFAULT_NATURAL_READ_SIZE_BYTES, OptionalLong.empty(), DictionaryVectors.ALL, Map.of());
  }

  /** The settings of {@code options}. */
  public static OrcOptions from(ReadOptions options) {
    return from(options.formatProperties());
  }

  /**
   * Parses the {@code orc.*} entries of {@code properties}; other entries are ignored.
   *
   * @throws IllegalArgumentException for a bad value, naming the key and the value
   */
  public static OrcOptions from(Map<String, String> properties) {
    long natural = DEFAULT_NATURAL_READ_SIZE_BYTES;
    OptionalLong threshold = OptionalLong.empty();
    DictionaryVectors dictionaries = DictionaryVectors.ALL;
    Map<String, String> library = new TreeMap<>();
    for (Map.Entry<String, String> entry : properties.entrySet()) {
      String key = entry.getKey();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      switch (key) {
        case NATURAL_READ_SIZE -> natural = OptionValues.parseBytes(key, entry.getValue());
        case PREFETCH_THRESHOLD ->
            threshold = OptionalLong.of(OptionValues.parseBytes(key, entry.getValue()));
        case DICTIONARY_VECTORS -> dictionaries = DictionaryVectors.parse(entry.getValue());
        default -> library.put(key, entry.getValue());
      }
    }
    return new OrcOptions(natural, threshold, dictionaries, library);
  }
}
