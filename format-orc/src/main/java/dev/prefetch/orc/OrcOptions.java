package dev.prefetch.orc;

import dev.prefetch.ReadOptions;
import dev.prefetch.spi.OptionValues;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
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
 * </ul>
 *
 * Sizes as {@link OptionValues#parseBytes}. Every other {@code orc.*} entry is handed to orc-core's
 * configuration ({@link #libraryProperties()}).
 *
 * @param naturalReadSizeBytes {@value #NATURAL_READ_SIZE}
 * @param prefetchThresholdBytes {@value #PREFETCH_THRESHOLD}, empty when not set
 * @param libraryProperties the {@code orc.*} entries that are not this class's keys
 */
public record OrcOptions(
    long naturalReadSizeBytes,
    OptionalLong prefetchThresholdBytes,
    Map<String, String> libraryProperties) {

  public static final String NATURAL_READ_SIZE = "orc.read.natural-read-size";
  public static final String PREFETCH_THRESHOLD = "orc.read.enable-prefetch-read-size-threshold";
  public static final long DEFAULT_NATURAL_READ_SIZE_BYTES = 8L << 20;

  private static final String PREFIX = "orc.";

  public OrcOptions {
    OptionValues.checkRange(NATURAL_READ_SIZE, naturalReadSizeBytes, 1, Long.MAX_VALUE);
    Objects.requireNonNull(prefetchThresholdBytes, "prefetchThresholdBytes is null");
    if (prefetchThresholdBytes.isPresent()) {
      OptionValues.checkRange(
          PREFETCH_THRESHOLD, prefetchThresholdBytes.getAsLong(), 0, Long.MAX_VALUE);
    }
    for (String key : libraryProperties.keySet()) {
      if (!key.startsWith(PREFIX)
          || key.equals(NATURAL_READ_SIZE)
          || key.equals(PREFETCH_THRESHOLD)) {
        throw new IllegalArgumentException("not an orc-core property: " + key);
      }
    }
    libraryProperties = Collections.unmodifiableMap(new TreeMap<>(libraryProperties));
  }

  /** The settings of a read that sets none. */
  public static OrcOptions defaults() {
    return new OrcOptions(DEFAULT_NATURAL_READ_SIZE_BYTES, OptionalLong.empty(), Map.of());
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
        default -> library.put(key, entry.getValue());
      }
    }
    return new OrcOptions(natural, threshold, library);
  }
}
