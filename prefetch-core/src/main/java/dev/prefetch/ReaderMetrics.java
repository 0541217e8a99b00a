package dev.prefetch;

import java.util.Map;

/**
 * What one reader did, as a snapshot.
 *
 * @param files files (or splits) the reader was given
 * @param rangesPlanned read ranges planned over the files planned so far
 * @param prefetch whether the prefetching path was chosen
 * @param decision why it was or was not chosen
 * @param parallelism producers started (0 on the single path)
 * @param batches batches returned to the caller
 * @param rows rows returned to the caller
 * @param bytesRead bytes read from storage (data and metadata), as the formats count them
 * @param consumerWaitNanos time the caller spent waiting in {@code next()} for producers
 * @param producerWaitNanos time producers spent waiting for queue space or memory budget
 * @param peakBufferedBytes the largest number of decoded bytes held in queues at once
 * @param producerParks times a producer on the context's executor gave its thread back to wait for
 *     queue room or budget (it is resubmitted when room frees)
 * @param producersAbandoned producers that {@code close()} left behind because they were stuck in
 *     I/O that neither an interrupt nor closing their streams ended within its bound; each releases
 *     its files when that I/O returns
 * @param counters format counters (footer reads, row groups decoded, cache hits, ...)
 */
public record ReaderMetrics(
    int files,
    long rangesPlanned,
    boolean prefetch,
    String decision,
    int parallelism,
    long batches,
    long rows,
    long bytesRead,
    long consumerWaitNanos,
    long producerWaitNanos,
    long peakBufferedBytes,
    long producerParks,
    long producersAbandoned,
    Map<String, Long> counters) {

  public ReaderMetrics {
    counters = Map.copyOf(counters);
  }

  /** A format counter, or 0. */
  public long counter(String name) {
    return counters.getOrDefault(name, 0L);
  }
}
