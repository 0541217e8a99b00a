package dev.prefetch.spark;

import dev.prefetch.spark.internal.PrefetchTable;
import dev.prefetch.spark.internal.ReadOnlyFormat;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.v2.FileDataSourceV2;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * The {@code prefetch} data source: Parquet and ORC files read by the prefetching reader, as a
 * Spark file source (DataSource V2). Registered under the short name {@value #SHORT_NAME} ({@code
 * META-INF/services/org.apache.spark.sql.sources.DataSourceRegister}).
 *
 * <p>Read only: the table reports only batch reads, and the V1 fallback refuses writes.
 */
public final class PrefetchDataSource implements FileDataSourceV2 {

  /** The name users pass to {@code format(...)}. */
  public static final String SHORT_NAME = "prefetch";

  // FileDataSourceV2 is a Scala trait with one private field; Java holds it and runs the
  // trait's initializer, which is what a Scala subclass would compile to.
  private Table table;

  public PrefetchDataSource() {
    FileDataSourceV2.$init$(this);
  }

  @Override
  public String shortName() {
    return SHORT_NAME;
  }

  /**
   * The V1 format Spark falls back to where it has no V2 path (writes through {@code
   * DataFrameWriter.save}): one that refuses to write, since this source only reads.
   */
  @Override
  public Class<? extends FileFormat> fallbackFileFormat() {
    return ReadOnlyFormat.class;
  }

  @Override
  public Table getTable(CaseInsensitiveStringMap options) {
    return newTable(options, Option.empty());
  }

  @Override
  public Table getTable(CaseInsensitiveStringMap options, StructType schema) {
    return newTable(options, Option.apply(schema));
  }

  private Table newTable(CaseInsensitiveStringMap options, Option<StructType> schema) {
    Seq<String> paths = getPaths(options);
    String name = getTableName(options, paths);
    return new PrefetchTable(name, sparkSession(), getOptionsWithoutPaths(options), paths, schema);
  }

  @Override
  public Table org$apache$spark$sql$execution$datasources$v2$FileDataSourceV2$$t() {
    return table;
  }

  @Override
  public void org$apache$spark$sql$execution$datasources$v2$FileDataSourceV2$$t_$eq(Table t) {
    this.table = t;
  }
}
