package dev.prefetch.arrow;

import dev.prefetch.ReadOptions;
import dev.prefetch.arrow.internal.ArrowTypes;
import dev.prefetch.arrow.internal.ColumnPlan;
import dev.prefetch.arrow.internal.DictionaryColumns;
import dev.prefetch.arrow.internal.SourceType;
import dev.prefetch.arrow.internal.SourceTypes;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * How the columns of a batch schema map to Arrow fields: an immutable value, built once per scan.
 *
 * <p>{@link #of(Schema)} maps by the batch types alone. {@link #of(Schema, Path, Configuration)}
 * also reads the file's own schema, for the types our batches widen: unsigned Parquet integers
 * become Arrow's unsigned integers (UINT64 values at or above 2^63 kept), Parquet FLOAT16 Arrow's
 * half float, and ORC unions Arrow dense unions. The full table is in the README. A column with no
 * Arrow type (a decimal of more than 76 digits) makes the factories throw an {@code
 * IllegalArgumentException} naming the column.
 *
 * <p>Dictionary encoding: both factories map every column expanded (its values in the field's own
 * vector). {@link #dictionaryEncoded} and {@link #of(Schema, Path, Configuration, ReadOptions)}
 * make top-level string and binary columns dictionary-encoded: the field keeps its value type
 * (Utf8, Binary, FixedSizeBinary) and gets a {@link DictionaryEncoding} with signed int32 indices,
 * not ordered, whose id is the column's position in the schema. A root then holds the indices and
 * the converter or reader, as a {@code DictionaryProvider}, the dictionaries. The choice is made
 * once, for the whole stream, since an Arrow stream's schema cannot change; a batch whose column
 * comes in the other form converts all the same (see {@link BatchConverter}).
 */
public final class ArrowMapping {

  private final Schema schema;
  private final List<SourceType> sources;
  private final List<ColumnPlan> plans;
  private final List<String> encoded;
  private final org.apache.arrow.vector.types.pojo.Schema arrowSchema;

  private ArrowMapping(Schema schema, List<SourceType> sources, Set<String> dictionaryEncoded) {
    this.schema = schema;
    this.sources = List.copyOf(sources);
    List<ColumnPlan> p = new ArrayList<>(schema.size());
    List<Field> fields = new ArrayList<>(schema.size());
    List<String> names = new ArrayList<>();
    for (int i = 0; i < schema.size(); i++) {
      ColumnPlan plan = ArrowTypes.plan(schema.field(i), sources.get(i));
      if (dictionaryEncoded.contains(schema.field(i).name())) {
        plan = ArrowTypes.dictionary(plan, i);
        names.add(schema.field(i).name());
      }
      p.add(plan);
      fields.add(plan.arrowField());
    }
    this.plans = List.copyOf(p);
    this.encoded = List.copyOf(names);
    this.arrowSchema = new org.apache.arrow.vector.types.pojo.Schema(fields);
  }

  /** The mapping by batch types alone. */
  public static ArrowMapping of(Schema schema) {
    Objects.requireNonNull(schema, "schema is null");
    return new ArrowMapping(schema, SourceTypes.plain(schema), Set.of());
  }

  /**
   * The mapping of a scan of {@code file}, whose batches have {@code schema}, with the source types
   * read from the file's footer (Parquet) or tail (ORC).
   *
   * @throws IOException when the file cannot be read
   */
  public static ArrowMapping of(Schema schema, Path file, Configuration conf) throws IOException {
    return new ArrowMapping(schema, read(schema, file, conf).types(), Set.of());
  }

  /**
   * The mapping of a scan of {@code file} read with {@code options}, as {@link #of(Schema, Path,
   * Configuration)} and with every column dictionary-encoded that the scan may hand out as {@link
   * dev.prefetch.batch.DictionaryVector}s: for a Parquet file, the top-level STRING, BINARY and
   * FIXED_BINARY columns that {@code parquet.read.dictionary-vectors} selects ({@code all} by
   * default); for any other file, none. This is the mapping of {@link PrefetchArrowReader}.
   *
   * @throws IOException when the file cannot be read
   */
  public static ArrowMapping of(Schema schema, Path file, Configuration conf, ReadOptions options)
      throws IOException {
    Objects.requireNonNull(options, "options is null");
    SourceTypes.FileTypes types = read(schema, file, conf);
    ArrowMapping plain = new ArrowMapping(schema, types.types(), Set.of());
    if (types.format() != SourceTypes.Format.PARQUET) {
      return plain;
    }
    return plain.dictionaryEncoded(DictionaryColumns.of(plain.plans, schema, options));
  }

  private static SourceTypes.FileTypes read(Schema schema, Path file, Configuration conf)
      throws IOException {
    Objects.requireNonNull(schema, "schema is null");
    Objects.requireNonNull(file, "file is null");
    Objects.requireNonNull(conf, "conf is null");
    try {
      return SourceTypes.read(file, schema, conf);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * This mapping with the top-level columns named in {@code columns} dictionary-encoded (and no
   * other).
   *
   * @throws IllegalArgumentException when a name is not a column of the schema, or names one that
   *     is not a string or binary column
   */
  public ArrowMapping dictionaryEncoded(Collection<String> columns) {
    Set<String> names = new HashSet<>();
    for (String name : columns) {
      int index = schema.indexOf(name);
      if (index < 0) {
        throw new IllegalArgumentException("no column " + name + " in " + schema);
      }
      ColumnPlan plan = ArrowTypes.plan(schema.field(index), sources.get(index));
      if (!ArrowTypes.canEncode(plan)) {
        throw new IllegalArgumentException(
            "column "
                + name
                + " of type "
                + schema.field(index).type()
                + " is not dictionary-encoded: only strings and binaries are");
      }
      names.add(name);
    }
    return new ArrowMapping(schema, sources, names);
  }

  /** The names of the dictionary-encoded columns, in schema order; empty for none. */
  public List<String> dictionaryEncodedColumns() {
    return encoded;
  }

  /** The batch schema this maps. */
  public Schema schema() {
    return schema;
  }

  /**
   * The Arrow schema, one field per batch column, in order. A dictionary-encoded field has its
   * values' type and its {@link DictionaryEncoding} (Arrow's message format, as a stream states
   * it); the vector of a root holding it is the indices' (see {@code
   * DictionaryUtility.toMemoryFormat}).
   */
  public org.apache.arrow.vector.types.pojo.Schema arrowSchema() {
    return arrowSchema;
  }

  List<ColumnPlan> plans() {
    return plans;
  }

  @Override
  public String toString() {
    return arrowSchema.toString();
  }
}
