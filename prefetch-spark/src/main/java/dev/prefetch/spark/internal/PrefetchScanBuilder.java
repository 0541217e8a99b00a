package dev.prefetch.spark.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex;
import org.apache.spark.sql.execution.datasources.v2.FileScanBuilder;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Takes Spark's column pruning and filters. {@link FileScanBuilder} splits the filters into
 * partition filters (used by Spark to prune directories) and data filters; of the data filters,
 * those {@link PushedFilters} can express for Parquet and ORC are pushed into the scan to prune row
 * groups, pages and stripes. Every data filter is still evaluated by Spark on the rows.
 */
final class PrefetchScanBuilder extends FileScanBuilder {

  private final SparkSession session;
  private final PartitioningAwareFileIndex fileIndex;
  private final StructType dataSchema;
  private final CaseInsensitiveStringMap options;

  PrefetchScanBuilder(
      SparkSession session,
      PartitioningAwareFileIndex fileIndex,
      StructType schema,
      StructType dataSchema,
      CaseInsensitiveStringMap options) {
    super(session, fileIndex, dataSchema);
    this.session = session;
    this.fileIndex = fileIndex;
    this.dataSchema = dataSchema;
    this.options = options;
  }

  @Override
  public Filter[] pushDataFilters(Filter[] filters) {
    List<Filter> pushed = new ArrayList<>();
    for (Filter filter : filters) {
      if (PushedFilters.pushable(filter, dataSchema)) {
        pushed.add(filter);
      }
    }
    return pushed.toArray(new Filter[0]);
  }

  @Override
  public Scan build() {
    return new PrefetchScan(
        session,
        fileIndex,
        dataSchema,
        readDataSchema(),
        readPartitionSchema(),
        pushedDataFilters(),
        options,
        partitionFilters(),
        dataFilters());
  }
}
