package dev.prefetch.arrow;

import dev.prefetch.ReadOptions;
import dev.prefetch.arrow.internal.ArrowTypes;
import dev.prefetch.arrow.internal.ColumnPlan;
import dev.prefetch.arrow.internal.SourceType;
import dev.prefetch.batch.Schema;
import dev.prefetch.spi.FileFormats;
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
 * <p>{@link #of(Schema)} maps by the batch types, and by the file's own types that the format
 * recorded on the schema's fields ({@link dev.prefetch.batch.Field#FILE_TYPE}) where our batches
 * widen them: unsigned Parquet integers become Arrow's unsigned integers (UINT64 values at or above
 * 2^63 kept), Parquet FLOAT16 Arrow's half float, and ORC unions Arrow dense unions. The full table
 * is in docs/arrow.md. A column with no Arrow type (a decimal of more than 76 digits) makes the
 * factories throw an {@code IllegalArgumentException} naming the column.
 *
 * <p>Dictionary encoding: {@link #of(Schema)} maps every column expanded (its values in the field's
 * own vector). {@link #dictionaryEncoded} and {@link #of(Schema, Path, Configuration, ReadOptions)}
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

  /**
   * The mapping of batches of {@code schema} (a reader's schema, whose fields carry the file's own
   * types), every column expanded.
   */
  public static ArrowMapping of(Schema schema) {
    Objects.requireNonNull(schema, "schema is null");
    return new ArrowMapping(schema, SourceType.of(schema), Set.of());
  }

  /**
   * The mapping of a scan of {@code file} read with {@code options}, as {@link #of(Schema)} and
   * with every column dictionary-encoded that the scan may hand out as {@link
   * dev.prefetch.batch.DictionaryVector}s, as the file's format answers ({@link
   * dev.prefetch.spi.FileFormat#dictionaryColumns}: for Parquet, the top-level STRING, BINARY and
   * FIXED_BINARY columns that {@code parquet.read.dictionary-vectors} selects, {@code all} by
   * default; for ORC, the top-level STRING columns (strings, chars, varchars) that {@code
   * orc.read.dictionary-vectors} selects, {@code all} by default). The format is told as the scan
   * tells it ({@link FileFormats}); no metadata is read. This is the mapping of {@link
   * PrefetchArrowReader}.
   *
   * @throws IOException when the file's format cannot be told
   * @throws IllegalArgumentException when the options hold a bad value of the format's
   */
  public static ArrowMapping of(Schema schema, Path file, Configuration conf, ReadOptions options)
      throws IOException {
    Objects.requireNonNull(file, "file is null");
    Objects.requireNonNull(conf, "conf is null");
    Objects.requireNonNull(options, "options is null");
    ArrowMapping plain = of(schema);
    Set<String> encoded = new HashSet<>();
    for (String name : FileFormats.of(file, conf).dictionaryColumns(schema, options)) {
      int index = schema.indexOf(name);
      if (index >= 0 && ArrowTypes.canEncode(plain.plans.get(index))) {
        encoded.add(name);
      }
    }
    return plain.dictionaryEncoded(encoded);
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
