package dev.prefetch.testkit.storage;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.StreamCapabilities;

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
 *
 * <p>Vectored reads are served as an object store client serves them (S3A fetches the ranges of a
 * vectored read asynchronously, each with a ranged GET of its own on its own pool): every range is
 * a request of its own, at most {@code vectoredRequests} in flight at once, each waiting the
 * latency and transferring at the per-stream rate on its own connection. The call returns at once,
 * as S3A's does; each range's future completes when its bytes have "arrived" (a scheduler thread of
 * the simulation completes it then), so a reader that issues its next read before it decodes the
 * last overlaps the two, as it would on S3A. A close fails the futures still pending. Ranges are
 * not merged: a Parquet reader asks for column chunks or pages, which it has already merged where
 * they are adjacent.
 */
final class SimulatedInputStream extends FSInputStream implements StreamCapabilities {

  private final FSDataInputStream in;
  private final long length;
  private final long latencyNanos;
  private final double bytesPerSecond;
  private final int vectoredRequests;
  private final CountDownLatch closed = new CountDownLatch(1);

  /** Completes vectored ranges when they arrive: the simulation's stand-in for S3A's pool. */
  private static final ScheduledExecutorService ARRIVALS =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "simulated-storage-arrivals");
            thread.setDaemon(true);
            return thread;
          });

  /** Vectored ranges whose bytes have not arrived yet (failed on close). */
  @GuardedBy("this")
  private final List<CompletableFuture<ByteBuffer>> pending = new ArrayList<>();

  @GuardedBy("this")
  private long transferEndNanos;

  /** Position of the sequential cursor, moved by the (single) sequential reader. */
  @GuardedBy("this")
  private long position;

  /** Whether the next sequential read starts a new request. */
  @GuardedBy("this")
  private boolean newRequest = true;

  SimulatedInputStream(
      FSDataInputStream in,
      long length,
      long latencyNanos,
      double bytesPerSecond,
      int vectoredRequests) {
    this.in = in;
    this.length = length;
    this.latencyNanos = latencyNanos;
    this.bytesPerSecond = bytesPerSecond;
    this.vectoredRequests = vectoredRequests;
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
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    checkOpen();
    List<? extends FileRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(FileRange::getOffset));
    long start = System.nanoTime();
    // When each of the in-flight request slots is free again, in nanos after start.
    long[] slots = new long[vectoredRequests];
    for (FileRange range : sorted) {
      if (range.getOffset() < 0
          || range.getLength() < 0
          || range.getOffset() + range.getLength() > length) {
        throw new EOFException("range " + range + " outside [0, " + length + "]");
      }
    }
    for (FileRange range : sorted) {
      ByteBuffer buffer = allocate.apply(range.getLength());
      if (buffer.hasArray()) {
        in.readFully(
            range.getOffset(),
            buffer.array(),
            buffer.arrayOffset() + buffer.position(),
            range.getLength());
        buffer.limit(buffer.position() + range.getLength());
      } else {
        byte[] bytes = new byte[range.getLength()];
        in.readFully(range.getOffset(), bytes, 0, bytes.length);
        buffer.put(bytes).flip();
      }
      int slot = 0;
      for (int s = 1; s < slots.length; s++) {
        slot = slots[s] < slots[slot] ? s : slot;
      }
      long transfer = bytesPerSecond <= 0 ? 0 : (long) (range.getLength() * 1e9 / bytesPerSecond);
      slots[slot] += latencyNanos + transfer;
      CompletableFuture<ByteBuffer> arrival = new CompletableFuture<>();
      synchronized (this) {
        pending.add(arrival);
      }
      range.setData(arrival);
      long delay = start + slots[slot] - System.nanoTime();
      ARRIVALS.schedule(() -> arrive(arrival, buffer), Math.max(0, delay), TimeUnit.NANOSECONDS);
    }
  }

  private void arrive(CompletableFuture<ByteBuffer> arrival, ByteBuffer buffer) {
    synchronized (this) {
      if (!pending.remove(arrival)) {
        return; // failed by close
      }
    }
    arrival.complete(buffer);
  }

  /** Says that it reads vectored, asynchronously, as S3A's stream says. */
  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.VECTOREDIO.equalsIgnoreCase(capability);
  }

  @Override
  public int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, length - getPos());
  }

  @Override
  public void close() throws IOException {
    closed.countDown();
    List<CompletableFuture<ByteBuffer>> failed;
    synchronized (this) {
      in.close();
      failed = new ArrayList<>(pending);
      pending.clear();
    }
    for (CompletableFuture<ByteBuffer> arrival : failed) {
      arrival.completeExceptionally(new IOException("stream closed"));
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
