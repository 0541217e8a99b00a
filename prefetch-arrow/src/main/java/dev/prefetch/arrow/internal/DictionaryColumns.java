package dev.prefetch.arrow.internal;

import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Schema;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which columns of a Parquet scan may come as dictionary vectors, and so are dictionary-encoded in
 * its Arrow stream: the top-level STRING, BINARY and FIXED_BINARY columns that the read option
 * {@value #OPTION} selects ({@code all}, the default; {@code none}; or a comma-separated list of
 * column names). The Parquet reader decides per column chunk, which the stream's schema, fixed at
 * open, cannot follow; so the rule names every column that can come as dictionary vectors in some
 * chunk, and a chunk read plain converts into a dictionary of its own batch's values.
 */
public final class DictionaryColumns {

  /** The Parquet read option that chooses the columns read as dictionary vectors. */
  public static final String OPTION = "parquet.read.dictionary-vectors";

  private DictionaryColumns() {}

  /** The names of the columns of {@code schema} (mapped by {@code plans}) to encode. */
  public static Set<String> of(List<ColumnPlan> plans, Schema schema, ReadOptions options) {
    String value = options.properties().getOrDefault(OPTION, "all").trim();
    boolean all = value.toLowerCase(Locale.ROOT).equals("all");
    Set<String> listed = new HashSet<>();
    if (!all && !value.toLowerCase(Locale.ROOT).equals("none")) {
      for (String name : value.split(",", -1)) {
        listed.add(name.trim());
      }
    }
    Set<String> out = new HashSet<>();
    for (int i = 0; i < schema.size(); i++) {
      String name = schema.field(i).name();
      if ((all || listed.contains(name))
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
