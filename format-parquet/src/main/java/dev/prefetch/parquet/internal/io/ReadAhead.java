package dev.prefetch.parquet.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The column chunks of a range reader's next row group, read ahead: issued as one vectored read
 * while the reader still decodes the row group before it (an object store's client fetches them
 * concurrently, as S3A does), and handed to parquet-hadoop's own vectored read of that row group
 * when it comes: each range it asks for that lies inside a run read ahead gets a view of that run's
 * buffer, nothing read twice. A range outside every run is read then, as without read-ahead.
 *
 * <p>Confined to the range reader's thread, like its stream. The buffers come from the reader's
 * {@link ChunkAllocator} ({@link ChunkAllocator#forReadAhead()}), which counts them in the reader's
 * ledger from their allocation, so what is read ahead is inside the read's budget.
 */
final class ReadAhead {

  /** A run of adjacent chunks read ahead, and its buffer to come. */
  private record Run(long offset, long length, CompletableFuture<ByteBuffer> data) {
    boolean holds(ParquetFileRange range) {
      return range.getOffset() >= offset
          && range.getOffset() + range.getLength() <= offset + length;
    }
  }

  private final List<Run> runs;

  private ReadAhead(List<Run> runs) {
    this.runs = runs;
  }

  /**
   * Issues the read of {@code runs} ({@code [offset, length]} pairs, in file order) on {@code in},
   * joined as {@code coalescing} plans, into buffers of {@code allocator}.
   */
  static ReadAhead issue(
      SeekableInputStream in,
      List<long[]> spans,
      ByteBufferAllocator allocator,
      ReadCoalescing coalescing,
      String file,
      long fileLength)
      throws IOException {
    List<ParquetFileRange> ranges = new ArrayList<>(spans.size());
    for (long[] span : spans) {
      ranges.add(new ParquetFileRange(span[0], Math.toIntExact(span[1])));
    }
    if (coalescing.enabled()) {
      CoalescedReads.read(in, ranges, allocator, coalescing, file, fileLength);
    } else {
      in.readVectored(ranges, allocator);
    }
    List<Run> runs = new ArrayList<>(ranges.size());
    for (ParquetFileRange range : ranges) {
      runs.add(new Run(range.getOffset(), range.getLength(), range.getDataReadFuture()));
    }
    return new ReadAhead(runs);
  }

  /**
   * Serves every range of {@code ranges} that lies inside a run read ahead (its future becomes a
   * view of the run's buffer); returns the ranges it could not serve, to be read now.
   */
  List<ParquetFileRange> serve(List<ParquetFileRange> ranges) {
    List<ParquetFileRange> rest = new ArrayList<>();
    for (ParquetFileRange range : ranges) {
      Run run = runOf(range);
      if (run == null) {
        rest.add(range);
        continue;
      }
      int from = Math.toIntExact(range.getOffset() - run.offset());
      int length = range.getLength();
      range.setDataReadFuture(run.data().thenApply(buffer -> view(buffer, from, length)));
    }
    return rest;
  }

  private Run runOf(ParquetFileRange range) {
    for (Run run : runs) {
      if (run.holds(range)) {
        return run;
      }
    }
    return null;
  }

  private static ByteBuffer view(ByteBuffer buffer, int from, int length) {
    ByteBuffer view = buffer.duplicate();
    view.position(buffer.position() + from);
    view.limit(buffer.position() + from + length);
    return view.slice();
  }
}
