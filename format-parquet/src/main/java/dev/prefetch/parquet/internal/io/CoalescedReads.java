package dev.prefetch.parquet.internal.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Serves the ranges of one vectored read with fewer storage requests: the ranges are joined as
 * {@link ReadCoalescing} plans, the joined requests go to the stream as one vectored read (so an
 * object store's client issues them concurrently, as it did the ranges), and each range gets a view
 * of its request's buffer, nothing copied.
 *
 * <p>Memory: a request's buffer comes from the caller's allocator (the range reader's {@link
 * ChunkAllocator}, which counts it in the read's budget from its allocation, gap bytes included)
 * and is one array for all its ranges; it goes back as one when the range reader reclaims what
 * vectored reads lent. Every range is checked against the file's length before anything is
 * allocated, and a request's length against {@link ReadCoalescing#maxRequestBytes()} by
 * construction.
 *
 * <p>Failures: a request that fails fails each of its ranges with the same cause (parquet-hadoop
 * raises it when it waits for the first), and a buffer shorter than its request, which a filesystem
 * should never return, fails its ranges with an {@link EOFException} naming the file.
 */
final class CoalescedReads {

  private CoalescedReads() {}

  /**
   * Reads {@code ranges} of {@code file} ({@code fileLength} bytes) from {@code in} in the requests
   * {@code coalescing} plans, setting each range's data future.
   *
   * @throws EOFException when a range reaches past the end of the file (nothing is read)
   */
  static void read(
      SeekableInputStream in,
      List<ParquetFileRange> ranges,
      ByteBufferAllocator allocator,
      ReadCoalescing coalescing,
      String file,
      long fileLength)
      throws IOException {
    for (ParquetFileRange range : ranges) {
      if (range.getOffset() < 0
          || range.getLength() < 0
          || range.getOffset() > fileLength - range.getLength()) {
        throw new EOFException(
            "Cannot read "
                + file
                + ": the bytes ["
                + range.getOffset()
                + ", +"
                + range.getLength()
                + ") lie outside the file of "
                + fileLength
                + " bytes");
      }
    }
    List<ReadCoalescing.Request> requests = coalescing.plan(ranges);
    if (requests.size() == ranges.size()) {
      in.readVectored(ranges, allocator); // nothing joined: the ranges are the requests
      return;
    }
    List<ParquetFileRange> reads = new ArrayList<>(requests.size());
    for (ReadCoalescing.Request request : requests) {
      reads.add(new ParquetFileRange(request.offset(), request.length()));
    }
    in.readVectored(reads, allocator);
    for (int i = 0; i < requests.size(); i++) {
      ReadCoalescing.Request request = requests.get(i);
      CompletableFuture<ByteBuffer> data = reads.get(i).getDataReadFuture();
      for (ParquetFileRange range : request.ranges()) {
        int from = request.positionOf(range);
        range.setDataReadFuture(
            data.thenApply(buffer -> slice(buffer, request, from, range, file)));
      }
    }
  }

  /** The view of {@code range} in its request's {@code buffer}. */
  private static ByteBuffer slice(
      ByteBuffer buffer,
      ReadCoalescing.Request request,
      int from,
      ParquetFileRange range,
      String file) {
    if (buffer.remaining() < request.length()) {
      throw new CompletionException(
          new EOFException(
              "Cannot read "
                  + file
                  + ": the request for ["
                  + request.offset()
                  + ", +"
                  + request.length()
                  + ") returned "
                  + buffer.remaining()
                  + " bytes"));
    }
    ByteBuffer view = buffer.duplicate();
    view.position(buffer.position() + from);
    view.limit(buffer.position() + from + range.getLength());
    return view.slice();
  }
}
