package dev.prefetch.arrow;

import dev.prefetch.arrow.internal.ArrowTypes;
import dev.prefetch.arrow.internal.ColumnPlan;
import dev.prefetch.arrow.internal.SourceType;
import dev.prefetch.arrow.internal.SourceTypes;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
 */
public final class ArrowMapping {

  private final Schema schema;
  private final List<ColumnPlan> plans;
  private final org.apache.arrow.vector.types.pojo.Schema arrowSchema;

  private ArrowMapping(Schema schema, List<SourceType> sources) {
    this.schema = schema;
    List<ColumnPlan> p = new ArrayList<>(schema.size());
    List<Field> fields = new ArrayList<>(schema.size());
    for (int i = 0; i < schema.size(); i++) {
      ColumnPlan plan = ArrowTypes.plan(schema.field(i), sources.get(i));
      p.add(plan);
      fields.add(plan.arrowField());
    }
    this.plans = List.copyOf(p);
    this.arrowSchema = new org.apache.arrow.vector.types.pojo.Schema(fields);
  }

  /** The mapping by batch types alone. */
  public static ArrowMapping of(Schema schema) {
    Objects.requireNonNull(schema, "schema is null");
    return new ArrowMapping(schema, SourceTypes.plain(schema));
  }

  /**
   * The mapping of a scan of {@code file}, whose batches have {@code schema}, with the source types
   * read from the file's footer (Parquet) or tail (ORC).
   *
   * @throws IOException when the file cannot be read
   */
  public static ArrowMapping of(Schema schema, Path file, Configuration conf) throws IOException {
    Objects.requireNonNull(schema, "schema is null");
    Objects.requireNonNull(file, "file is null");
    Objects.requireNonNull(conf, "conf is null");
    try {
      return new ArrowMapping(schema, SourceTypes.of(file, schema, conf));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** The batch schema this maps. */
  public Schema schema() {
    return schema;
  }

  /** The Arrow schema, one field per batch column, in order. */
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
