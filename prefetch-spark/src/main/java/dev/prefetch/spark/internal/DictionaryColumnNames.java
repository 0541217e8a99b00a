package dev.prefetch.spark.internal;

import dev.prefetch.parquet.ParquetOptions;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Resolves the column names of {@code parquet.read.dictionary-vectors} as Spark resolves the
 * query's: the Parquet reader matches them exactly against the file's names, while a Spark user
 * writes them as in a query, where {@code spark.sql.caseSensitive=false} (the default) lets {@code
 * City} name the column {@code city}. Without this, such a name would silently select nothing.
 */
final class DictionaryColumnNames {

  private DictionaryColumnNames() {}

  /**
   * {@code properties} with each listed name replaced by the table column it names ignoring case,
   * when {@code caseSensitive} is false; otherwise, and for {@code all}, {@code none}, a name that
   * names no column and a malformed list (which the Parquet options reject, quoting the value as
   * given), the properties unchanged.
   */
  static Map<String, String> resolve(
      Map<String, String> properties, StructType dataSchema, boolean caseSensitive) {
    String value = properties.get(ParquetOptions.DICTIONARY_VECTORS);
    if (caseSensitive || value == null) {
      return properties;
    }
    String trimmed = value.trim().toLowerCase(Locale.ROOT);
    if (trimmed.equals("all") || trimmed.equals("none")) {
      return properties;
    }
    StringJoiner names = new StringJoiner(",");
    for (String name : value.split(",", -1)) {
      if (name.isBlank()) {
        return properties;
      }
      names.add(tableName(name.trim(), dataSchema));
    }
    Map<String, String> resolved = new LinkedHashMap<>(properties);
    resolved.put(ParquetOptions.DICTIONARY_VECTORS, names.toString());
    return resolved;
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
