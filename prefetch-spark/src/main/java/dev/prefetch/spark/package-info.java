/**
 * The prefetch reader inside Spark 4.2: a DataSource V2 file source, {@code format("prefetch")},
 * for Parquet and ORC files.
 *
 * <pre>{@code
 * Dataset<Row> events = spark.read().format("prefetch")
 *     .option("prefetch.parallelism", "4")
 *     .load("s3a://bucket/events/");
 * }</pre>
 *
 * <p>Spark's own file-source machinery lists the files, expands globs, discovers Hive-style
 * partition directories, prunes them and cuts splits ({@code spark.sql.files.maxPartitionBytes});
 * the source turns each split into columnar batches read by the prefetching reader and hands them
 * to Spark without copying. {@link PrefetchSparkOptions} lists the options and settings; the
 * implementation is in {@code dev.prefetch.spark.internal}.
 */
package dev.prefetch.spark;
