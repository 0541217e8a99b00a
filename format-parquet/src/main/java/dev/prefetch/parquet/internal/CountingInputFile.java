package dev.prefetch.parquet.internal;

import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * An {@link InputFile} whose streams count what they read into the reader's {@link ScanCounters}:
 * every byte into {@link ScanCounters#BYTES_READ}, every bulk read call (a {@code readFully} or a
 * buffer read) into {@link ScanCounters#READ_REQUESTS}. Single-byte reads count bytes only; the
 * library issues them only while walking small headers that an earlier bulk read buffered.
 *
 * <p>Vectored reads are forwarded only when asked for (an object store's client fetches the ranges
 * of one vectored read concurrently); each range counts as a request and its bytes as read.
 * Otherwise parquet-hadoop falls back to the plain, counted reads.
 */
public final class CountingInputFile implements InputFile {

  private final InputFile delegate;
  private final long length;
  private final ScanCounters counters;
  private final boolean vectored;

  /**
   * A counted file whose streams offer vectored reads when {@code vectored} and the delegate's do.
   */
  public CountingInputFile(
      InputFile delegate, long length, ScanCounters counters, boolean vectored) {
    this.delegate = Objects.requireNonNull(delegate, "delegate is null");
    this.length = length;
    this.counters = Objects.requireNonNull(counters, "counters is null");
    this.vectored = vectored;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new CountingStream(delegate.newStream(), counters, vectored);
  }

  @Override
  public String toString() {
    return delegate.toString();
  }

  /** Forwards to a stream and counts. Confined to the thread that reads it, as the delegate. */
  static final class CountingStream extends ForwardingSeekableInputStream {
    private final ScanCounters counters;
    private final boolean vectored;

    CountingStream(SeekableInputStream in, ScanCounters counters, boolean vectored) {
      super(in);
      this.counters = counters;
      this.vectored = vectored;
    }

    @Override
    public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
      return vectored && in.readVectoredAvailable(allocator);
    }

    @Override
    public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
        throws IOException {
      if (!vectored) {
        throw new UnsupportedOperationException("vectored reads are off for this file");
      }
      // parquet-hadoop never releases a vectored read's buffers: the range reader's allocator
      // takes them back itself once the row group is done (see ChunkAllocator).
      in.readVectored(
          ranges,
          allocator instanceof ChunkAllocator chunks ? chunks.forVectoredReads() : allocator);
      for (ParquetFileRange range : ranges) {
        counted(range.getLength());
      }
    }

    private void counted(long bytes) {
      if (bytes > 0) {
        counters.add(ScanCounters.BYTES_READ, bytes);
      }
      counters.increment(ScanCounters.READ_REQUESTS);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        counters.add(ScanCounters.BYTES_READ, 1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      counted(n);
      return n;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      in.readFully(bytes);
      counted(bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      in.readFully(bytes, start, len);
      counted(len);
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      int n = in.read(buf);
      counted(n);
      return n;
    }

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
      int n = buf.remaining();
      in.readFully(buf);
      counted(n);
    }
  }
}
