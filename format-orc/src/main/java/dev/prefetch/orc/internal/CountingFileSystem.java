package dev.prefetch.orc.internal;

import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A view of a filesystem whose opened streams count what they read into {@link ScanCounters}.
 *
 * <p>orc-core reads through {@code FSDataInputStream} positioned reads ({@code readFully(position,
 * ...)}, also behind its vectored reads); each such call is one request (a large one on a local
 * file is split into several reads, still counted as one). Besides {@link ScanCounters#BYTES_READ}
 * and {@link ScanCounters#READ_REQUESTS}, an optional extra byte counter (the tail bytes while the
 * tail is read) is added to.
 */
final class CountingFileSystem extends FilterFileSystem {

  /** The largest single read of a local file (see {@link CountingStream#readFully}). */
  static final int LOCAL_READ_CHUNK_BYTES = 8 << 20;

  private final ScanCounters counters;
  private final String extraBytesCounter;

  /** Whether the file is on the local filesystem, whose large reads are split. */
  private final boolean localFile;

  /** Streams opened and not yet closed: orc-core leaks one when a record reader fails to open. */
  private final Set<CountingStream> openStreams = ConcurrentHashMap.newKeySet();

  /**
   * @param fs the real filesystem
   * @param counters where to count
   * @param extraBytesCounter a counter that also gets every byte read, or null
   */
  CountingFileSystem(FileSystem fs, ScanCounters counters, String extraBytesCounter) {
    super(Objects.requireNonNull(fs, "fs is null"));
    this.counters = Objects.requireNonNull(counters, "counters is null");
    this.extraBytesCounter = extraBytesCounter;
    this.localFile = "file".equals(fs.getUri().getScheme());
    setConf(fs.getConf());
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    CountingStream stream = new CountingStream(fs.open(f, bufferSize));
    openStreams.add(stream);
    return new FSDataInputStream(stream);
  }

  /**
   * Closes every stream opened through this view and not closed yet. orc-core's record reader opens
   * its stream in its constructor and does not close it when the constructor fails (an I/O error or
   * an interrupt while it reads the first stripe), so its owner cleans up here.
   */
  void closeOpenStreams() throws IOException {
    IOException failure = null;
    for (CountingStream stream : openStreams) {
      try {
        stream.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public FSDataInputStream open(Path f) throws IOException {
    return open(f, getConf() == null ? 4096 : getConf().getInt("io.file.buffer.size", 4096));
  }

  private void count(long bytes) {
    if (bytes > 0) {
      counters.add(ScanCounters.BYTES_READ, bytes);
      if (extraBytesCounter != null) {
        counters.add(extraBytesCounter, bytes);
      }
    }
  }

  /** Delegates every read to the real stream and counts it. Confined to its reader's thread. */
  private final class CountingStream extends FSInputStream {
    private final FSDataInputStream in;

    CountingStream(FSDataInputStream in) {
      this.in = in;
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) throws IOException {
      return in.seekToNewSource(targetPos);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      counters.increment(ScanCounters.READ_REQUESTS);
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      counters.increment(ScanCounters.READ_REQUESTS);
      count(n);
      return n;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(position, buffer, offset, length);
      counters.increment(ScanCounters.READ_REQUESTS);
      count(n);
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      if (!localFile) {
        in.readFully(position, buffer, offset, length);
      } else {
        // The JDK reads a local file into a native buffer of the request's size and copies it
        // out; above glibc's mmap limit (32 MiB) every such buffer is mapped fresh and faulted in
        // page by page, which made one 40 MiB stream read cost ten times its bytes.
        for (int done = 0; done < length; ) {
          int n = Math.min(length - done, LOCAL_READ_CHUNK_BYTES);
          in.readFully(position + done, buffer, offset + done, n);
          done += n;
        }
      }
      counters.increment(ScanCounters.READ_REQUESTS);
      count(length);
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public void close() throws IOException {
      openStreams.remove(this);
      in.close();
    }
  }
}
