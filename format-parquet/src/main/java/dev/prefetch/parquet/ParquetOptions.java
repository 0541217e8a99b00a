package dev.prefetch.parquet;

import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import java.util.Locale;

/**
 * Options of the Parquet format beyond {@link ReadOptions}' own keys, read from its {@link
 * ReadOptions#properties()} and validated when a file is planned.
 */
public final class ParquetOptions {

  /**
   * The unit INT96 timestamps map to: {@code micros} (the default, as Spark and DuckDB read them:
   * every year from 0001 to 9999 and beyond fits) or {@code nanos} (years 1677 to 2262; a value
   * outside is an error naming the file).
   */
  public static final String INT96_TIMESTAMP_UNIT = "parquet.read.int96-timestamp-unit";

  private ParquetOptions() {}

  /**
   * The unit of {@link #INT96_TIMESTAMP_UNIT} in {@code options}.
   *
   * @throws IllegalArgumentException for a value other than micros or nanos, naming the key
   */
  public static DataType.TimeUnit int96Unit(ReadOptions options) {
    String value = options.properties().get(INT96_TIMESTAMP_UNIT);
    if (value == null) {
      return DataType.TimeUnit.MICROS;
    }
    switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "micros":
        return DataType.TimeUnit.MICROS;
      case "nanos":
        return DataType.TimeUnit.NANOS;
      default:
        throw new IllegalArgumentException(
            INT96_TIMESTAMP_UNIT + " must be micros or nanos: '" + value + "'");
    }
  }
}
