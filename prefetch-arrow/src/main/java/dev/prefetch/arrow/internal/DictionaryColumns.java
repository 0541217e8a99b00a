package dev.prefetch.arrow.internal;

import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Schema;
import dev.prefetch.parquet.ParquetOptions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which columns of a Parquet scan may come as dictionary vectors, and so are dictionary-encoded in
 * its Arrow stream: the top-level STRING, BINARY and FIXED_BINARY columns that the read option
 * {@value ParquetOptions#DICTIONARY_VECTORS} selects ({@code all}, the default; {@code none}; or a
 * comma-separated list of column names), parsed as the Parquet reader parses it. The reader decides
 * per column chunk (wholly dictionary-encoded or not), which the stream's schema, fixed at open,
 * cannot follow; so the rule names every column that can come as dictionary vectors in some chunk,
 * and a chunk read plain converts into a dictionary of its own batch's values.
 */
public final class DictionaryColumns {

  private DictionaryColumns() {}

  /**
   * The names of the columns of {@code schema} (mapped by {@code plans}) to encode in a scan of a
   * Parquet file with {@code options}.
   *
   * @throws IllegalArgumentException when the options hold a bad Parquet value (the scan's open
   *     rejects it first)
   */
  public static Set<String> of(List<ColumnPlan> plans, Schema schema, ReadOptions options) {
    ParquetOptions.DictionaryVectors selected = ParquetOptions.from(options).dictionaryVectors();
    Set<String> out = new HashSet<>();
    for (int i = 0; i < schema.size(); i++) {
      String name = schema.field(i).name();
      if (selected.includes(name)
          && isStringOrBinary(schema.field(i).type())
          && ArrowTypes.canEncode(plans.get(i))) {
        out.add(name);
      }
    }
    return out;
  }

  private static boolean isStringOrBinary(DataType type) {
    return type.kind() == DataType.Kind.STRING
        || type.kind() == DataType.Kind.BINARY
        || type.kind() == DataType.Kind.FIXED_BINARY;
  }
}
