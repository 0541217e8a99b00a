package dev.prefetch.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * The input stream both formats read storage through: it forwards every call to the filesystem's
 * stream, counts what it reads into the reader's {@link ScanCounters}, and on local files keeps
 * each call to at most {@link #LOCAL_READ_CHUNK_BYTES}. Wrap it in an {@link FSDataInputStream} to
 * hand it to a format library.
 *
 * <p>Counting: every byte read into {@link ScanCounters#BYTES_READ} (and into an optional extra
 * counter, such as the footer bytes while a footer is read); every bulk call (a {@code read} or
 * {@code readFully} of an array or buffer, positioned or not) as one {@link
 * ScanCounters#READ_REQUESTS}, also when it is cut into several calls below; each range of a
 * vectored read as one request and its bytes as read. Single-byte reads count their byte only:
 * libraries issue them while walking small headers that an earlier bulk read buffered.
 *
 * <p>Why local reads are cut: the JDK reads a local file through a native buffer of the call's
 * size, which above glibc's mmap threshold (32 MiB) is mapped and faulted in afresh on every call
 * (one 40 MiB read of an ORC stream cost ten times its bytes). A sequential read longer than the
 * chunk returns the chunk's bytes (a short read, which every caller handles); a positioned {@code
 * readFully} is done in chunks.
 *
 * <p>Confined to the thread that reads it, like the stream it wraps; {@link #close()} may come from
 * another thread to end a blocked read (the wrapped stream's close does that).
 */
public final class CountingInputStream extends ForwardingInputStream
    implements ByteBufferReadable, StreamCapabilities {

  /** The largest single call to a local file's stream. */
  public static final int LOCAL_READ_CHUNK_BYTES = 8 << 20;

  private final ScanCounters counters;
  private final String extraBytesCounter;
  private final int maxCallBytes;
  private final Consumer<CountingInputStream> onClose;

  /** Whether the wrapped stream reads into buffers itself. */
  private final boolean bufferReads;

  /**
   * @param in the filesystem's stream
   * @param counters where to count
   * @param extraBytesCounter a counter that also gets every byte read, or null
   * @param local whether the stream reads a local file (see {@link #isLocal}), whose calls are cut
   * @param onClose called with this stream once it is closed (its owner forgets it), or null
   */
  public CountingInputStream(
      FSDataInputStream in,
      ScanCounters counters,
      String extraBytesCounter,
      boolean local,
      Consumer<CountingInputStream> onClose) {
    super(in);
    this.counters = Objects.requireNonNull(counters, "counters is null");
    this.extraBytesCounter = extraBytesCounter;
    this.maxCallBytes = local ? LOCAL_READ_CHUNK_BYTES : Integer.MAX_VALUE;
    this.onClose = onClose;
    this.bufferReads = in.hasCapability(StreamCapabilities.READBYTEBUFFER);
  }

  /** Whether {@code fs} reads local files (scheme {@code file}), whose read calls are cut. */
  public static boolean isLocal(FileSystem fs) {
    return "file".equalsIgnoreCase(fs.getUri().getScheme());
  }

  private void counted(long bytes) {
    if (bytes > 0) {
      counters.add(ScanCounters.BYTES_READ, bytes);
      if (extraBytesCounter != null) {
        counters.add(extraBytesCounter, bytes);
      }
    }
    counters.increment(ScanCounters.READ_REQUESTS);
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      counters.add(ScanCounters.BYTES_READ, 1);
      if (extraBytesCounter != null) {
        counters.add(extraBytesCounter, 1);
      }
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, Math.min(len, maxCallBytes));
    counted(n);
    return n;
  }

  /**
   * Reads into {@code buf} from the wrapped stream's buffer read when it has one, else through the
   * buffer's array (a heap buffer) or a bounded copy (a direct one).
   */
  @Override
  public int read(ByteBuffer buf) throws IOException {
    int want = Math.min(buf.remaining(), maxCallBytes);
    int n;
    if (bufferReads) {
      int limit = buf.limit();
      buf.limit(buf.position() + want);
      try {
        n = in.read(buf);
      } finally {
        buf.limit(limit);
      }
    } else if (buf.hasArray()) {
      n = in.read(buf.array(), buf.arrayOffset() + buf.position(), want);
      if (n > 0) {
        buf.position(buf.position() + n);
      }
    } else {
      byte[] copy = new byte[Math.min(want, 64 << 10)];
      n = in.read(copy, 0, copy.length);
      if (n > 0) {
        buf.put(copy, 0, n);
      }
    }
    counted(n);
    return n;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(position, buffer, offset, Math.min(length, maxCallBytes));
    counted(n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    if (length <= maxCallBytes) {
      in.readFully(position, buffer, offset, length);
    } else {
      for (int done = 0; done < length; ) {
        int n = Math.min(length - done, maxCallBytes);
        in.readFully(position + done, buffer, offset + done, n);
        done += n;
      }
    }
    counted(length);
  }

  /**
   * Forwards the whole vectored read, so that an object store's client can fetch the ranges
   * concurrently; each range counts as issued.
   */
  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    in.readVectored(ranges, allocate);
    for (FileRange range : ranges) {
      counted(range.getLength());
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    // buffer reads work on every stream here (through an array when the wrapped one lacks them)
    return StreamCapabilities.READBYTEBUFFER.equalsIgnoreCase(capability)
        || in.hasCapability(capability);
  }

  @Override
  public void close() throws IOException {
    try {
      in.close();
    } finally {
      if (onClose != null) {
        onClose.accept(this);
      }
    }
  }
}
