package dev.prefetch.examples.storage;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;

/**
 * A local stream with an object store's costs: a first-byte latency per request and a per-stream
 * transfer rate.
 *
 * <p>Design. A request is a positioned read, or the first sequential read after an open or a seek
 * that moved the position. Each request waits the latency; then its bytes are charged to the
 * stream's transfer schedule: {@code transferEnd = max(now, previous transferEnd) + bytes / rate},
 * and the reader waits until then. The schedule ({@link #transferEndNanos}) is guarded by the
 * stream's monitor, but all waiting happens outside it, so that concurrent positioned reads each
 * pay their own latency and share the stream's bandwidth. Every wait is on {@link #closed}: an
 * interrupt raises an {@link InterruptedIOException} (with the flag kept), and {@link #close()}
 * from another thread wakes every waiter at once, which then fails with "stream closed".
 */
final class SimulatedInputStream extends FSInputStream {

  private final FSDataInputStream in;
  private final long length;
  private final long latencyNanos;
  private final double bytesPerSecond;
  private final CountDownLatch closed = new CountDownLatch(1);

  /** Guarded by this. */
  private long transferEndNanos;
  /** Position of the sequential cursor; owned by the (single) sequential reader. */
  private long position;
  /** Whether the next sequential read starts a new request. */
  private boolean newRequest = true;

  SimulatedInputStream(FSDataInputStream in, long length, long latencyNanos, double bytesPerSecond) {
    this.in = in;
    this.length = length;
    this.latencyNanos = latencyNanos;
    this.bytesPerSecond = bytesPerSecond;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0 || target > length) {
      throw new EOFException("seek to " + target + " outside [0, " + length + "]");
    }
    if (target != position) {
      in.seek(target);
      position = target;
      newRequest = true;
    }
  }

  @Override
  public synchronized long getPos() {
    return position;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] buffer, int offset, int len) throws IOException {
    checkOpen();
    if (len == 0) {
      return 0;
    }
    boolean request;
    synchronized (this) {
      request = newRequest;
      newRequest = false;
    }
    if (request) {
      waitNanos(latencyNanos);
    }
    int n;
    synchronized (this) {
      n = in.read(buffer, offset, len);
      if (n > 0) {
        position += n;
      }
    }
    if (n > 0) {
      charge(n);
    }
    return n;
  }

  @Override
  public int read(long pos, byte[] buffer, int offset, int len) throws IOException {
    checkOpen();
    if (len == 0) {
      return 0;
    }
    waitNanos(latencyNanos);
    int n = in.read(pos, buffer, offset, len);
    if (n > 0) {
      charge(n);
    }
    return n;
  }

  @Override
  public void readFully(long pos, byte[] buffer, int offset, int len) throws IOException {
    checkOpen();
    waitNanos(latencyNanos);
    in.readFully(pos, buffer, offset, len);
    charge(len);
  }

  @Override
  public int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, length - getPos());
  }

  @Override
  public void close() throws IOException {
    closed.countDown();
    synchronized (this) {
      in.close();
    }
  }

  private void checkOpen() throws IOException {
    if (closed.getCount() == 0) {
      throw new IOException("stream closed");
    }
  }

  /** Books {@code bytes} on the stream's transfer schedule and waits until they have "arrived". */
  private void charge(long bytes) throws IOException {
    if (bytesPerSecond <= 0) {
      return;
    }
    long end;
    synchronized (this) {
      long now = System.nanoTime();
      long start = Math.max(now, transferEndNanos);
      end = start + (long) (bytes * 1e9 / bytesPerSecond);
      transferEndNanos = end;
    }
    waitNanos(end - System.nanoTime());
  }

  private void waitNanos(long nanos) throws IOException {
    if (nanos <= 0) {
      return;
    }
    try {
      if (closed.await(nanos, TimeUnit.NANOSECONDS)) {
        throw new IOException("stream closed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for simulated storage");
    }
  }
}
