package dev.prefetch.parquet.internal.io;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.parquet.io.ParquetFileRange;

/**
 * How the byte ranges of one vectored read become storage requests: ranges sorted by offset, each
 * joined to the request before it when the gap between them is at most {@code gapBytes} and the
 * request stays at most {@code maxRequestBytes} long. Pure arithmetic, tested without files.
 *
 * <p>Why: parquet-hadoop asks for a range's column chunks, or for a page-filtered read a chunk's
 * dictionary and its selected pages, as one range per run of adjacent bytes. A slice of a row group
 * is two runs per column (the dictionary at the chunk's start, the slice's pages further in): on
 * the CLI's 12-column scan table, 15 to 16 requests a slice, each paying an object store's time to
 * first byte. Reading a gap costs its transfer instead: at 64 MiB/s 1 MiB takes about as long as a
 * 20 ms first byte, hence the default gap of 1 MiB. The smallest gaps are joined first, and a plan
 * reads at most as many gap bytes as its ranges hold: many thin slices of one row group would
 * otherwise each read most of its small columns whole (32 slices read 2.4 times the file). A range
 * is never cut: one longer than {@code maxRequestBytes} is a request of its own.
 *
 * @param gapBytes the largest gap read rather than skipped; 0 turns coalescing off
 * @param maxRequestBytes the longest request two or more ranges are joined into
 */
public record ReadCoalescing(long gapBytes, long maxRequestBytes) {

  /** No ranges are joined. */
  public static final ReadCoalescing OFF = new ReadCoalescing(0, 1);

  public ReadCoalescing {
    if (gapBytes < 0) {
      throw new IllegalArgumentException("gapBytes must not be negative: " + gapBytes);
    }
    if (maxRequestBytes < 1 || maxRequestBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "maxRequestBytes must be in [1, " + Integer.MAX_VALUE + "]: " + maxRequestBytes);
    }
  }

  /** Whether any ranges may be joined. */
  public boolean enabled() {
    return gapBytes > 0;
  }

  /**
   * One storage request: the bytes {@code [offset, offset + length)}, which hold each of its ranges
   * whole.
   *
   * @param ranges the ranges it serves, by offset
   */
  public record Request(long offset, int length, List<ParquetFileRange> ranges) {

    public Request {
      ranges = List.copyOf(ranges);
    }

    /** Where {@code range} starts in this request's bytes. */
    int positionOf(ParquetFileRange range) {
      return Math.toIntExact(range.getOffset() - offset);
    }
  }

  /**
   * The requests that read {@code ranges}: each range in exactly one, requests in file order. With
   * coalescing off, one request per range.
   *
   * @throws IllegalArgumentException for a range with a negative offset or length
   */
  public List<Request> plan(List<ParquetFileRange> ranges) {
    List<ParquetFileRange> sorted = new ArrayList<>(ranges);
    long wanted = 0;
    for (ParquetFileRange range : sorted) {
      if (range.getOffset() < 0 || range.getLength() < 0) {
        throw new IllegalArgumentException("not a byte range: " + range);
      }
      wanted += range.getLength();
    }
    sorted.sort(Comparator.comparingLong(ParquetFileRange::getOffset));
    int n = sorted.size();
    // Runs of consecutive ranges, each read as one request, named by their first range's index;
    // start and end of a run's first range are the run's extent.
    long[] start = new long[n];
    long[] end = new long[n];
    long[] reach = new long[n]; // the furthest end of ranges 0..i, where the gap after i begins
    int[] runOf = new int[n];
    for (int i = 0; i < n; i++) {
      start[i] = sorted.get(i).getOffset();
      end[i] = start[i] + sorted.get(i).getLength();
      reach[i] = Math.max(i == 0 ? 0 : reach[i - 1], end[i]);
      runOf[i] = i;
    }
    if (enabled()) {
      // The gaps between neighbours, smallest first, while the gap bytes stay within the budget.
      Integer[] gaps = new Integer[Math.max(0, n - 1)];
      for (int i = 0; i < gaps.length; i++) {
        gaps[i] = i;
      }
      java.util.Arrays.sort(gaps, Comparator.comparingLong(i -> gap(sorted, reach, i)));
      long budget = wanted;
      for (int i : gaps) {
        long gap = gap(sorted, reach, i);
        if (gap > gapBytes || gap > budget) {
          break;
        }
        int left = find(runOf, i);
        int right = i + 1; // the run to its right starts at i + 1: runs are consecutive
        long extent = Math.max(end[left], end[right]) - start[left];
        if (extent > maxRequestBytes) {
          continue;
        }
        runOf[right] = left;
        end[left] = Math.max(end[left], end[right]);
        budget -= gap;
      }
    }
    List<Request> requests = new ArrayList<>();
    List<ParquetFileRange> members = new ArrayList<>();
    int run = -1;
    for (int i = 0; i < n; i++) {
      int r = find(runOf, i);
      if (r != run && run >= 0) {
        requests.add(new Request(start[run], Math.toIntExact(end[run] - start[run]), members));
        members.clear();
      }
      run = r;
      members.add(sorted.get(i));
    }
    if (run >= 0) {
      requests.add(new Request(start[run], Math.toIntExact(end[run] - start[run]), members));
    }
    return requests;
  }

  /** Bytes between ranges {@code 0..i} and range {@code i + 1} (0 when they overlap). */
  private static long gap(List<ParquetFileRange> sorted, long[] reach, int i) {
    return Math.max(0, sorted.get(i + 1).getOffset() - reach[i]);
  }

  /** The run range {@code i} belongs to (the first range of that run). */
  private static int find(int[] runOf, int i) {
    int r = i;
    while (runOf[r] != r) {
      r = runOf[r];
    }
    runOf[i] = r;
    return r;
  }
}
