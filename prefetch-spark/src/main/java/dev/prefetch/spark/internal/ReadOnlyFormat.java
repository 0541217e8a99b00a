package dev.prefetch.spark.internal;

import org.apache.hadoop.mapreduce.Job;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.OutputWriterFactory;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.types.StructType;

/**
 * The V1 format Spark falls back to for {@code format("prefetch")} where it has no V2 path ({@code
 * DataFrameWriter.save}). The source only reads, so a write fails here, at planning, instead of
 * silently writing Parquet.
 */
public final class ReadOnlyFormat extends ParquetFileFormat {

  private static final long serialVersionUID = 1L;

  @Override
  public OutputWriterFactory prepareWrite(
      SparkSession session,
      Job job,
      scala.collection.immutable.Map<String, String> options,
      StructType dataSchema) {
    throw new UnsupportedOperationException(
        "the prefetch source reads only; write with " + "format(\"parquet\") or format(\"orc\")");
  }

  @Override
  public String shortName() {
    return "prefetch";
  }

  @Override
  public String toString() {
    return "prefetch";
  }
}
