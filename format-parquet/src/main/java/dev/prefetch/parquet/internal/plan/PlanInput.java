package dev.prefetch.parquet.internal.plan;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.parquet.internal.io.CountingInputFile;
import dev.prefetch.parquet.internal.io.ReadCoalescing;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;

/**
 * The file a Parquet plan reads, opened for planning: the configuration its readers use, its
 * status, its identity for the metadata cache and its counted input.
 *
 * @param conf the context's configuration, or a copy with the read's own parquet-hadoop properties
 * @param status the file's status (one lookup per plan)
 * @param identity the file's identity when the context has a cache, else null
 * @param input the file's bytes, counted; vectored reads, their ranges joined into fewer requests,
 *     only off the local filesystem
 */
public record PlanInput(
    Configuration conf, FileStatus status, FileIdentity identity, CountingInputFile input) {

  /**
   * Looks {@code file} up; a file of at most {@link ReadOptions#wholeFileBytes()} is read whole
   * when first needed.
   */
  public static PlanInput open(
      DataFile file,
      ReadOptions options,
      ParquetOptions parquetOptions,
      ReadContext context,
      ScanCounters counters)
      throws IOException {
    Configuration conf = configuration(context.configuration(), parquetOptions.libraryProperties());
    FileSystem fs = file.path().getFileSystem(conf);
    FileStatus status = fs.getFileStatus(file.path());
    if (status.isDirectory()) {
      throw new IOException("Cannot read " + file + ": it is a directory, not a Parquet file");
    }
    FileIdentity identity = context.cache() == null ? null : FileIdentity.of(status);
    // Vectored reads let an object store client fetch a range's column chunks concurrently; on
    // local files Hadoop serves them through an asynchronous channel with a JDK thread pool of
    // its own, and positioned reads are as fast, so local files keep plain reads. A local request
    // costs a system call, not a first byte's wait, so its ranges are not joined either.
    boolean vectored = !"file".equalsIgnoreCase(status.getPath().toUri().getScheme());
    ReadCoalescing coalescing =
        new ReadCoalescing(parquetOptions.coalesceGapBytes(), parquetOptions.maxRequestBytes());
    return new PlanInput(
        conf,
        status,
        identity,
        new CountingInputFile(
            status, conf, counters, vectored, coalescing, options.wholeFileBytes()));
  }

  /** The file's length. */
  public long length() {
    return status.getLen();
  }

  /**
   * {@code base}, or a copy of it (thousands of entries) with {@code library} when the read sets
   * parquet-hadoop properties of its own.
   */
  private static Configuration configuration(Configuration base, Map<String, String> library) {
    if (library.isEmpty()) {
      return base;
    }
    Configuration conf = new Configuration(base);
    for (Map.Entry<String, String> entry : library.entrySet()) {
      conf.set(entry.getKey(), entry.getValue());
    }
    return conf;
  }
}
