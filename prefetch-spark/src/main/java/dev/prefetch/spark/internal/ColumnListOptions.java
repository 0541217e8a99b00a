package dev.prefetch.spark.internal;

import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FileFormats;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Resolves the column names of the formats' column-list options ({@link
 * FileFormat#columnListOptions()}, such as {@code parquet.read.dictionary-vectors}) as Spark
 * resolves the query's: a format matches them exactly against the file's names, while a Spark user
 * writes them as in a query, where {@code spark.sql.caseSensitive=false} (the default) lets {@code
 * City} name the column {@code city}. Without this, such a name would silently select nothing.
 */
final class ColumnListOptions {

  private ColumnListOptions() {}

  /**
   * {@code properties} with each name listed in a column-list option replaced by the table column
   * it names ignoring case, when {@code caseSensitive} is false; otherwise, and for a value that is
   * a keyword ({@code all}, {@code none}), a name that names no column and a malformed list (which
   * the format rejects, quoting the value as given), the properties unchanged.
   */
  static Map<String, String> resolve(
      Map<String, String> properties, StructType dataSchema, boolean caseSensitive) {
    if (caseSensitive) {
      return properties;
    }
    Map<String, String> resolved = null;
    for (FileFormat format : FileFormats.all()) {
      for (String key : format.columnListOptions()) {
        String value = properties.get(key);
        String names = value == null ? null : resolveList(value, dataSchema);
        if (names != null && !names.equals(value)) {
          if (resolved == null) {
            resolved = new LinkedHashMap<>(properties);
          }
          resolved.put(key, names);
        }
      }
    }
    return resolved == null ? properties : resolved;
  }

  private static String resolveList(String value, StructType dataSchema) {
    String trimmed = value.trim().toLowerCase(Locale.ROOT);
    if (trimmed.equals("all") || trimmed.equals("none")) {
      return value;
    }
    StringJoiner names = new StringJoiner(",");
    for (String name : value.split(",", -1)) {
      if (name.isBlank()) {
        return value;
      }
      names.add(tableName(name.trim(), dataSchema));
    }
    return names.toString();
  }

  private static String tableName(String name, StructType dataSchema) {
    for (StructField field : dataSchema.fields()) {
      if (field.name().equalsIgnoreCase(name)) {
        return field.name();
      }
    }
    return name;
  }
}
