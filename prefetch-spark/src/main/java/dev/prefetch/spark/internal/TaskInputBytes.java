package dev.prefetch.spark.internal;

import java.util.List;
import org.apache.hadoop.fs.FileSystem;

/**
 * Puts the bytes one reader fetched into its task's input metrics ({@code inputMetrics.bytesRead},
 * "Input Size" in Spark's UI), although producers fetch them on threads of their own.
 *
 * <p>Why through Hadoop's statistics: Spark's scan of a DataSource V2 source sets the task's input
 * bytes, again and again and last when the task completes, to what Hadoop's {@link
 * FileSystem.Statistics} counted on the task's thread since the scan began (its {@code
 * DataSourceRDD}, with {@code SparkHadoopUtil.getFSBytesReadOnThreadCallback}); a value set on the
 * task's metrics directly is overwritten, and the counts of other threads are never asked for. So
 * the task's thread adds, to a statistics entry of its own ({@value #SCHEME}, summed by Spark with
 * every file system's), the bytes the reader fetched that the task thread's own counts lack.
 *
 * <p>What the task's input bytes then hold: the reader's {@code bytesRead} (data and metadata, as
 * the formats count them, so a footer served by the executor's cache adds nothing), exactly. The
 * file system counts of the task's thread while it is inside the reader (opening the first file,
 * reading a split too small to prefetch, closing) are already in Spark's sum, and counted in their
 * own way (a local file system's checksum files, say); they are measured around each call and taken
 * out again, so an addition can be negative. Bytes producers fetch after the task's last batch,
 * when a task stops early (a {@code LIMIT}), come after Spark's last look and are not counted.
 *
 * <p>Threads: only the task's thread calls an instance (Spark calls a partition reader from it
 * alone), and only it adds to its own statistics data: Hadoop keeps a thread's counts apart.
 */
final class TaskInputBytes {

  /** The scheme of the statistics entry that holds the added bytes. */
  static final String SCHEME = "prefetch";

  /** Hadoop keys statistics by file system class: this one is a key only, never made. */
  private abstract static class FetchedForTasks extends FileSystem {}

  // Deprecated in Hadoop for GlobalStorageStatistics, but these are the statistics Spark sums.
  @SuppressWarnings("deprecation")
  private static final FileSystem.Statistics ADDED =
      FileSystem.getStatistics(SCHEME, FetchedForTasks.class);

  /** What Hadoop counted on the task's thread during calls into the reader. */
  private long countedOnTaskThread;

  /** What this instance added so far. */
  private long added;

  /** The task thread's count now; pass it to {@link #after} when the call into the reader ends. */
  long before() {
    return threadBytesRead();
  }

  /** Ends a call into the reader that began at {@code before}. */
  void after(long before) {
    countedOnTaskThread += threadBytesRead() - before;
  }

  /**
   * Brings the bytes this reader contributes to the task's input metrics to {@code fetched}, its
   * {@code bytesRead} now.
   */
  void report(long fetched) {
    long delta = fetched - countedOnTaskThread - added;
    if (delta != 0) {
      ADDED.incrementBytesRead(delta);
      added += delta;
    }
  }

  /** Bytes Hadoop counted on this thread, over every file system, as Spark sums them. */
  @SuppressWarnings("deprecation")
  private static long threadBytesRead() {
    long sum = 0;
    List<FileSystem.Statistics> all = FileSystem.getAllStatistics();
    for (FileSystem.Statistics statistics : all) {
      sum += statistics.getThreadStatistics().getBytesRead();
    }
    return sum;
  }
}
