package dev.prefetch.parquet.internal.index;

import dev.prefetch.parquet.internal.io.ReadCoalescing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The offset indexes of the selected chunks of one row group, fetched in as few requests as {@link
 * ReadCoalescing} joins them, on the first ask.
 *
 * <p>Why: parquet-hadoop reads the offset index of every selected column before a page-filtered
 * read of a row group, one after another, each a request of its own (12 columns: 12 waits for a
 * first byte in a row, before the pages are asked for). A writer puts a row group's offset indexes
 * side by side, so they are one request.
 *
 * <p>Protocol: the range reader {@link #arm arms} it with the chunks of the row group it is about
 * to read and {@link #disarm disarms} it when parquet-hadoop returns; meanwhile {@link #bytes}
 * serves the reads of the indexes inside a joined request, loading that request on the first. Only
 * references inside the file are joined; the others are left to {@link PageIndexReader}, which
 * names a bad one. A request's length is at most {@link ReadCoalescing#maxRequestBytes()}, checked
 * before its array is allocated. Confined to the range reader's thread, like its stream.
 */
final class OffsetIndexRequests implements PageIndexReader.Prefetched {

  private final SeekableInputStream in;
  private final ReadCoalescing coalescing;
  private final long fileLength;

  /** The joined requests of the armed row group (of two or more indexes each). */
  private List<ReadCoalescing.Request> requests = List.of();

  /** Each request's bytes once loaded, else null. */
  private byte[][] loaded = new byte[0][];

  OffsetIndexRequests(SeekableInputStream in, ReadCoalescing coalescing, long fileLength) {
    this.in = in;
    this.coalescing = coalescing;
    this.fileLength = fileLength;
  }

  /** Plans the requests for the offset indexes of {@code chunks}; reads nothing yet. */
  void arm(List<ColumnChunkMetaData> chunks) {
    disarm();
    if (!coalescing.enabled()) {
      return;
    }
    List<ParquetFileRange> ranges = new ArrayList<>();
    for (ColumnChunkMetaData chunk : chunks) {
      IndexReference ref = chunk.getOffsetIndexReference();
      if (ref != null
          && ref.getOffset() >= 0
          && ref.getLength() > 0
          && ref.getOffset() <= fileLength - ref.getLength()) {
        ranges.add(new ParquetFileRange(ref.getOffset(), ref.getLength()));
      }
    }
    List<ReadCoalescing.Request> joined = new ArrayList<>();
    for (ReadCoalescing.Request request : coalescing.plan(ranges)) {
      if (request.ranges().size() > 1) {
        joined.add(request);
      }
    }
    requests = joined;
    loaded = new byte[joined.size()][];
  }

  /** Forgets the armed requests and their bytes. */
  void disarm() {
    requests = List.of();
    loaded = new byte[0][];
  }

  @Override
  public byte[] bytes(long position, int length) throws IOException {
    for (int i = 0; i < requests.size(); i++) {
      ReadCoalescing.Request request = requests.get(i);
      long from = position - request.offset();
      if (from >= 0 && length >= 0 && from + length <= request.length()) {
        if (loaded[i] == null) {
          byte[] bytes = new byte[request.length()]; // at most maxRequestBytes, inside the file
          in.seek(request.offset());
          in.readFully(bytes);
          loaded[i] = bytes;
        }
        return Arrays.copyOfRange(loaded[i], (int) from, (int) from + length);
      }
    }
    return null;
  }
}
