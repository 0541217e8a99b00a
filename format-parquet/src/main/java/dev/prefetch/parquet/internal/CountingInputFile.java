package dev.prefetch.parquet.internal;

import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * An {@link InputFile} whose streams count what they read into the reader's {@link ScanCounters}:
 * every byte into {@link ScanCounters#BYTES_READ}, every bulk read call (a {@code readFully} or a
 * buffer read) into {@link ScanCounters#READ_REQUESTS}. Single-byte reads count bytes only; the
 * library issues them only while walking small headers that an earlier bulk read buffered.
 *
 * <p>Vectored reads are deliberately not forwarded, so parquet-hadoop reads through the counted
 * methods.
 */
public final class CountingInputFile implements InputFile {

  private final InputFile delegate;
  private final long length;
  private final ScanCounters counters;

  public CountingInputFile(InputFile delegate, long length, ScanCounters counters) {
    this.delegate = Objects.requireNonNull(delegate, "delegate is null");
    this.length = length;
    this.counters = Objects.requireNonNull(counters, "counters is null");
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new CountingStream(delegate.newStream(), counters);
  }

  @Override
  public String toString() {
    return delegate.toString();
  }

  /** Forwards to a stream and counts. Confined to the thread that reads it, as the delegate. */
  static final class CountingStream extends SeekableInputStream {
    private final SeekableInputStream in;
    private final ScanCounters counters;

    CountingStream(SeekableInputStream in, ScanCounters counters) {
      this.in = in;
      this.counters = counters;
    }

    private void counted(long bytes) {
      if (bytes > 0) {
        counters.add(ScanCounters.BYTES_READ, bytes);
      }
      counters.increment(ScanCounters.READ_REQUESTS);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public void seek(long newPos) throws IOException {
      in.seek(newPos);
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

    @Override
    public long skip(long n) throws IOException {
      return in.skip(n);
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
