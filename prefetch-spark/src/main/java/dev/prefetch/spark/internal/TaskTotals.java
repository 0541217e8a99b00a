package dev.prefetch.spark.internal;

import dev.prefetch.ReaderMetrics;
import dev.prefetch.spi.ScanCounters;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The metrics of every reader a task has closed so far. Spark sets a task's metric to the value its
 * current reader reports, and a task reads one split after another with a new reader each; so each
 * reader reports the task's totals plus its own, and {@link #snapshot()} reports for the task
 * whichever reader is open (Spark's per-task file walker does not ask its readers). Only the task's
 * thread touches an instance; the map is shared by the executor's tasks and loses a task's entry
 * when it ends.
 */
final class TaskTotals {

  private static final ConcurrentMap<Long, TaskTotals> BY_TASK = new ConcurrentHashMap<>();

  private PrefetchPartitionReader open;
  private long bytesRead;
  private long readRequests;
  private long producerWaitNanos;
  private long consumerWaitNanos;
  private long footerHits;
  private long footerMisses;
  private long readRanges;
  private long producers;

  /** The totals of the task running on this thread (fresh ones outside a task). */
  static TaskTotals current() {
    TaskContext task = TaskContext.get();
    if (task == null) {
      return new TaskTotals();
    }
    long id = task.taskAttemptId();
    TaskTotals totals = BY_TASK.get(id);
    if (totals == null) {
      totals = new TaskTotals();
      BY_TASK.put(id, totals);
      task.addTaskCompletionListener(
          new org.apache.spark.util.TaskCompletionListener() {
            @Override
            public void onTaskCompletion(TaskContext context) {
              BY_TASK.remove(id);
            }
          });
    }
    return totals;
  }

  /** The reader of this task now reading (at most one: a task reads its splits in turn). */
  void opened(PrefetchPartitionReader reader) {
    this.open = reader;
  }

  /** The task's figures so far, the open reader's included. */
  CustomTaskMetric[] snapshot() {
    PrefetchPartitionReader reader = open;
    return reader == null ? with(null, null) : reader.currentMetricsValues();
  }

  /** Adds a closed reader's final figures. */
  void closed(PrefetchPartitionReader reader, ReaderMetrics metrics, CountingCache cache) {
    if (open == reader) {
      open = null;
    }
    bytesRead += metrics.bytesRead();
    readRequests += metrics.counter(ScanCounters.READ_REQUESTS);
    producerWaitNanos += metrics.producerWaitNanos();
    consumerWaitNanos += metrics.consumerWaitNanos();
    readRanges += metrics.rangesPlanned();
    producers += metrics.parallelism();
    if (cache != null) {
      footerHits += cache.footerHits();
      footerMisses += cache.footerMisses();
    }
  }

  /** These totals plus an open reader's figures so far (null: none open). */
  CustomTaskMetric[] with(ReaderMetrics open, CountingCache cache) {
    long hits = footerHits + (cache == null ? 0 : cache.footerHits());
    long misses = footerMisses + (cache == null ? 0 : cache.footerMisses());
    if (open == null) {
      return ScanMetrics.values(
          bytesRead,
          readRequests,
          producerWaitNanos,
          consumerWaitNanos,
          hits,
          misses,
          readRanges,
          producers);
    }
    return ScanMetrics.values(
        bytesRead + open.bytesRead(),
        readRequests + open.counter(ScanCounters.READ_REQUESTS),
        producerWaitNanos + open.producerWaitNanos(),
        consumerWaitNanos + open.consumerWaitNanos(),
        hits,
        misses,
        readRanges + open.rangesPlanned(),
        producers + open.parallelism());
  }
}
