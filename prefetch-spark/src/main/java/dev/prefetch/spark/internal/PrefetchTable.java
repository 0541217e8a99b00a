package dev.prefetch.spark.internal;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.spi.FileFormats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.orc.OrcUtils;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
import org.apache.spark.sql.execution.datasources.v2.FileTable;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * A directory (or files, or globs) of Parquet or ORC files as a Spark table. Spark's {@link
 * FileTable} lists the files and finds partition columns; the data schema is the one Spark's own
 * Parquet or ORC reader infers from the files (same options, same rules), so a query gets the same
 * columns and types from {@code format("prefetch")} as from {@code spark.read.parquet} / {@code
 * spark.read.orc}.
 */
public final class PrefetchTable extends FileTable {

  private final String name;
  private final SparkSession session;
  private final CaseInsensitiveStringMap options;

  public PrefetchTable(
      String name,
      SparkSession session,
      CaseInsensitiveStringMap options,
      Seq<String> paths,
      Option<StructType> userSpecifiedSchema) {
    super(session, options, paths, userSpecifiedSchema);
    this.name = name;
    this.session = session;
    this.options = options;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String formatName() {
    return "prefetch";
  }

  @Override
  public Class<? extends FileFormat> fallbackFileFormat() {
    return ReadOnlyFormat.class;
  }

  /** Reads only; no write capability, so Spark refuses writes at analysis. */
  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    throw new UnsupportedOperationException(
        "the prefetch source reads only; write with " + "format(\"parquet\") or format(\"orc\")");
  }

  @Override
  public Option<StructType> inferSchema(Seq<FileStatus> files) {
    if (files.isEmpty()) {
      return Option.empty();
    }
    String format;
    Configuration conf =
        session.sessionState().newHadoopConfWithOptions(Scala.map(options.asCaseSensitiveMap()));
    try {
      format = FileFormats.of(files.head().getPath(), conf).name();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    scala.collection.immutable.Map<String, String> scalaOptions =
        Scala.map(options.asCaseSensitiveMap());
    if (format.equals("parquet")) {
      return ParquetUtils.inferSchema(session, scalaOptions, files);
    }
    try {
      return OrcUtils.inferSchema(session, files, scalaOptions);
    } catch (Exception e) {
      // Spark's ORC inference has no union type (its parser rejects "uniontype<...>", an
      // exception Scala throws undeclared); our reader gives unions as structs.
      if (!(e instanceof ParseException)) {
        throw e;
      }
      return Option.apply(ourSchema(files.head().getPath(), conf));
    }
  }

  private static StructType ourSchema(org.apache.hadoop.fs.Path path, Configuration conf) {
    try (BatchReader reader =
        Readers.open(
            DataFile.of(path),
            ReadOptions.builder().prefetchEnabled(false).build(),
            ReadContext.builder().configuration(conf).build())) {
      return SparkTypes.of(reader.schema());
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
    return new PrefetchScanBuilder(
        session, fileIndex(), schema(), dataSchema(), mergedOptions(scanOptions));
  }
}
