package dev.prefetch.spark.internal;

import dev.prefetch.spark.PrefetchSparkOptions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.internal.Logging;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.SQLConfHelper;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex;
import org.apache.spark.sql.execution.datasources.v2.FileScan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import scala.collection.immutable.Seq;

/**
 * The scan of a {@link PrefetchTable}: Spark's {@link FileScan} plans the input partitions
 * (listing, partition pruning, splits of {@code spark.sql.files.maxPartitionBytes} packed into
 * tasks); this class adds that Parquet and ORC files are splittable, the reader factory, the pushed
 * filters and the custom metrics.
 *
 * <p>{@code FileScan} is a Scala trait: its two vals and the {@code Logging} trait's logger are
 * fields a Scala class would get from the compiler; here they are declared by hand, and the traits'
 * initializers run in the constructor in Scala's linearization order.
 */
final class PrefetchScan implements FileScan {

  private final SparkSession session;
  private final PartitioningAwareFileIndex fileIndex;
  private final StructType dataSchema;
  private final StructType readDataSchema;
  private final StructType readPartitionSchema;
  private final Filter[] pushedFilters;
  private final CaseInsensitiveStringMap options;
  private final Seq<Expression> partitionFilters;
  private final Seq<Expression> dataFilters;

  private int maxMetadataValueLength;
  private boolean caseSensitive;
  private transient Logger log;

  PrefetchScan(
      SparkSession session,
      PartitioningAwareFileIndex fileIndex,
      StructType dataSchema,
      StructType readDataSchema,
      StructType readPartitionSchema,
      Filter[] pushedFilters,
      CaseInsensitiveStringMap options,
      Seq<Expression> partitionFilters,
      Seq<Expression> dataFilters) {
    this.session = session;
    this.fileIndex = fileIndex;
    this.dataSchema = dataSchema;
    this.readDataSchema = readDataSchema;
    this.readPartitionSchema = readPartitionSchema;
    this.pushedFilters = pushedFilters.clone();
    this.options = options;
    this.partitionFilters = partitionFilters;
    this.dataFilters = dataFilters;
    Logging.$init$(this);
    SQLConfHelper.$init$(this);
    FileScan.$init$(this);
  }

  @Override
  public boolean isSplitable(Path path) {
    return true;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    Map<String, String> sessionConf =
        new HashMap<>(scala.jdk.javaapi.CollectionConverters.asJava(session.conf().getAll()));
    Map<String, String> readProperties =
        ColumnListOptions.resolve(
            PrefetchSparkOptions.readProperties(sessionConf, options.asCaseSensitiveMap()),
            dataSchema,
            caseSensitive);
    Configuration hadoopConf =
        session.sessionState().newHadoopConfWithOptions(Scala.map(options.asCaseSensitiveMap()));
    Broadcast<SerializableConfiguration> conf =
        JavaSparkContext.fromSparkContext(session.sparkContext())
            .broadcast(new SerializableConfiguration(hadoopConf));
    return new PrefetchReaderFactory(
        conf,
        dataSchema,
        readDataSchema,
        readPartitionSchema,
        pushedFilters,
        readProperties,
        new HashMap<>(options.asCaseSensitiveMap()),
        PrefetchSparkOptions.streamFiles(sessionConf, options.asCaseSensitiveMap()));
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return ScanMetrics.supported();
  }

  @Override
  public String description() {
    return FileScan.super.description() + ", PushedFilters: " + Arrays.toString(pushedFilters);
  }

  @Override
  public scala.collection.immutable.Map<String, String> getMetaData() {
    return FileScan.super.getMetaData().updated("PushedFilters", Arrays.toString(pushedFilters));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PrefetchScan scan
        && FileScan.super.equals(other)
        && dataSchema.equals(scan.dataSchema)
        && options.equals(scan.options)
        && equivalentFilters(pushedFilters, scan.pushedFilters);
  }

  @Override
  public int hashCode() {
    return getClass().hashCode();
  }

  @Override
  public String toString() {
    return description();
  }

  @Override
  public SparkSession sparkSession() {
    return session;
  }

  @Override
  public PartitioningAwareFileIndex fileIndex() {
    return fileIndex;
  }

  @Override
  public StructType dataSchema() {
    return dataSchema;
  }

  @Override
  public StructType readDataSchema() {
    return readDataSchema;
  }

  @Override
  public StructType readPartitionSchema() {
    return readPartitionSchema;
  }

  @Override
  public Seq<Expression> partitionFilters() {
    return partitionFilters;
  }

  @Override
  public Seq<Expression> dataFilters() {
    return dataFilters;
  }

  // The fields of the Scala traits (see the class comment).

  @Override
  public int maxMetadataValueLength() {
    return maxMetadataValueLength;
  }

  @Override
  public void
      org$apache$spark$sql$execution$datasources$v2$FileScan$_setter_$maxMetadataValueLength_$eq(
          int value) {
    this.maxMetadataValueLength = value;
  }

  @Override
  public boolean org$apache$spark$sql$execution$datasources$v2$FileScan$$isCaseSensitive() {
    return caseSensitive;
  }

  @Override
  public void
      org$apache$spark$sql$execution$datasources$v2$FileScan$_setter_$org$apache$spark$sql$execution$datasources$v2$FileScan$$isCaseSensitive_$eq(
          boolean value) {
    this.caseSensitive = value;
  }

  @Override
  public Logger org$apache$spark$internal$Logging$$log_() {
    return log;
  }

  @Override
  public void org$apache$spark$internal$Logging$$log__$eq(Logger logger) {
    this.log = logger;
  }
}
