package dev.prefetch.spi;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.EOFException;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;

/**
 * A small file read whole, in one request, the first time any stream of it is asked for (its footer
 * or tail, while planning), then served from memory to the plan and every range reader of it
 * ({@code read.whole-file-bytes}). A data lake's many small files then cost one request each, not a
 * footer's and a row group's: on an object store, one first-byte wait instead of two or three.
 *
 * <p>Memory: the bytes live as long as this object, which the file's plan holds: a plan is held for
 * the files in flight only, so at most a few such files are in memory at once, each at most the
 * option's bound (3 MiB by default). They are outside the read's budget, as the plans are.
 *
 * <p>Thread-safe: the producers of a read may open streams of the same file at once; the first
 * reads the file (the others wait for it), and a failed read is not kept, so the next open tries
 * again and fails or succeeds on its own.
 */
public final class WholeFile {

  /** Opens the file's stream from its start, counted: the one request a whole file costs. */
  @FunctionalInterface
  public interface Opener {
    FSDataInputStream open() throws IOException;
  }

  private final String name;
  private final long length;
  private final Opener opener;

  @GuardedBy("this")
  private byte[] bytes;

  /**
   * A file of {@code length} bytes (at most {@code Integer.MAX_VALUE - 8}), read through {@code
   * opener} when first needed; {@code name} names it in errors.
   */
  public WholeFile(String name, long length, Opener opener) {
    this.name = Objects.requireNonNull(name, "name is null");
    if (length < 0 || length > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(name + ": cannot read " + length + " bytes whole");
    }
    this.length = length;
    this.opener = Objects.requireNonNull(opener, "opener is null");
  }

  public long length() {
    return length;
  }

  /** The file's bytes, read on the first call; the caller must not change them. */
  public synchronized byte[] bytes() throws IOException {
    if (bytes == null) {
      byte[] read = new byte[(int) length];
      try (FSDataInputStream in = opener.open()) {
        try {
          in.readFully(0, read, 0, read.length);
        } catch (EOFException e) {
          EOFException shorter =
              new EOFException(name + " ended before the " + length + " bytes its status gives");
          shorter.initCause(e);
          throw shorter;
        }
      }
      bytes = read;
    }
    return bytes;
  }

  /** A stream of the file over its bytes in memory (read first if they are not yet). */
  public FSDataInputStream newStream() throws IOException {
    return new FSDataInputStream(new InMemory(bytes()));
  }

  @Override
  public String toString() {
    return name;
  }

  /** A seekable, positioned stream over an array; confined to its reader's thread. */
  private static final class InMemory extends FSInputStream {
    private final byte[] bytes;
    private int position;
    private boolean closed;

    InMemory(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public void seek(long pos) throws IOException {
      checkOpen();
      if (pos < 0 || pos > bytes.length) {
        throw new EOFException("seek to " + pos + " outside a file of " + bytes.length + " bytes");
      }
      position = (int) pos;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      checkOpen();
      return position < bytes.length ? bytes[position++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      checkOpen();
      Objects.checkFromIndexSize(offset, length, buffer.length);
      if (length == 0) {
        return 0;
      }
      int n = Math.min(length, bytes.length - position);
      if (n <= 0) {
        return -1;
      }
      System.arraycopy(bytes, position, buffer, offset, n);
      position += n;
      return n;
    }

    @Override
    public int read(long pos, byte[] buffer, int offset, int length) throws IOException {
      checkOpen();
      Objects.checkFromIndexSize(offset, length, buffer.length);
      if (pos < 0) {
        throw new EOFException("read at " + pos);
      }
      if (pos >= bytes.length) {
        return -1;
      }
      int n = (int) Math.min(length, bytes.length - pos);
      System.arraycopy(bytes, (int) pos, buffer, offset, n);
      return n;
    }

    @Override
    public void readFully(long pos, byte[] buffer, int offset, int length) throws IOException {
      checkOpen();
      Objects.checkFromIndexSize(offset, length, buffer.length);
      if (pos < 0 || pos > bytes.length - (long) length) {
        throw new EOFException(
            "read of " + length + " bytes at " + pos + " past a file of " + bytes.length);
      }
      System.arraycopy(bytes, (int) pos, buffer, offset, length);
    }

    @Override
    public int available() {
      return closed ? 0 : bytes.length - position;
    }

    @Override
    public void close() {
      closed = true;
    }

    private void checkOpen() throws IOException {
      if (closed) {
        throw new IOException("stream is closed");
      }
    }
  }
}
