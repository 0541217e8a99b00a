package dev.prefetch.testing;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.impl.FutureDataInputStreamBuilderImpl;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A Hadoop filesystem over the local one, under the scheme {@value #SCHEME}, that injects faults
 * into the streams it opens: a failing k-th read, failing reads of a byte range, short reads,
 * (interruptible) delays, reads that block until released, a truncated visible length, and a
 * failing close. It counts opens, closes and reads per file, so a test can prove every stream it
 * opened was closed.
 *
 * <p>{@code faulty:///tmp/x/a.parquet} is the local file {@code /tmp/x/a.parquet}. Faults are kept
 * in a static registry keyed by the local path, so every instance Hadoop creates (it caches one per
 * configuration key) sees the same faults; tests call {@link #reset()} before and after each test.
 * Streams are {@code Seekable} and {@code PositionedReadable}, as parquet-hadoop and orc-core
 * require; positioned reads go through the same fault checks as sequential ones.
 *
 * <p>Thread-safety: the registry is a concurrent map; a {@link Faults} object's settings are
 * volatile and its counters atomic, so producers on many threads may read one file at once.
 */
public class FaultInjectingFileSystem extends FilterFileSystem {

  /** The URI scheme this filesystem serves. */
  public static final String SCHEME = "faulty";

  private static final URI ROOT = URI.create(SCHEME + ":///");
  private static final Map<String, Faults> REGISTRY = new ConcurrentHashMap<>();
  private static final AtomicLong TOTAL_OPENS = new AtomicLong();
  private static final AtomicLong TOTAL_CLOSES = new AtomicLong();

  /** Streams open now, each with where it was opened, for leak reports. */
  private static final Map<FaultyStream, Throwable> OPEN = new ConcurrentHashMap<>();

  public FaultInjectingFileSystem() {
    super(new RawLocalFileSystem());
  }

  /** Registers the scheme in {@code conf} and returns it. */
  public static Configuration register(Configuration conf) {
    conf.set("fs." + SCHEME + ".impl", FaultInjectingFileSystem.class.getName());
    return conf;
  }

  /** A new configuration with the scheme registered. */
  public static Configuration configuration() {
    return register(new Configuration());
  }

  /** The {@code faulty:} path of a local file. */
  public static Path path(java.nio.file.Path local) {
    return new Path(SCHEME, null, local.toAbsolutePath().toString());
  }

  /** The faults (and counters) of a local file, created on first use. */
  public static Faults faults(java.nio.file.Path local) {
    return faultsOf(local.toAbsolutePath().toString());
  }

  /** The faults (and counters) of a {@code faulty:} path, created on first use. */
  public static Faults faults(Path path) {
    return faultsOf(path.toUri().getPath());
  }

  private static Faults faultsOf(String localPath) {
    return REGISTRY.computeIfAbsent(localPath, Faults::new);
  }

  /** Forgets every fault and counter. */
  public static void reset() {
    REGISTRY.clear();
    OPEN.clear();
    TOTAL_OPENS.set(0);
    TOTAL_CLOSES.set(0);
  }

  /** Streams opened since the last reset, over all files. */
  public static long totalOpens() {
    return TOTAL_OPENS.get();
  }

  /** Streams closed since the last reset, over all files. */
  public static long totalCloses() {
    return TOTAL_CLOSES.get();
  }

  /** Throws AssertionError when a stream opened since the last reset is still open. */
  public static void assertAllStreamsClosed() {
    long opens = TOTAL_OPENS.get();
    long closes = TOTAL_CLOSES.get();
    if (opens != closes) {
      StringBuilder open = new StringBuilder();
      REGISTRY.forEach(
          (path, faults) -> {
            if (faults.openStreams() != 0) {
              open.append(' ').append(path).append('=').append(faults.openStreams());
            }
          });
      AssertionError error =
          new AssertionError(
              "streams opened "
                  + opens
                  + ", closed "
                  + closes
                  + "; still open:"
                  + open
                  + " (the cause shows where one of them was opened)");
      OPEN.values().stream().findFirst().ifPresent(error::initCause);
      throw error;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The filesystem: translate faulty: paths to local ones and back.

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(URI.create("file:///"), conf);
    setConf(conf);
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return ROOT;
  }

  @Override
  protected URI getCanonicalUri() {
    return ROOT;
  }

  @Override
  public Path makeQualified(Path path) {
    return path.makeQualified(ROOT, getWorkingDirectory());
  }

  @Override
  protected void checkPath(Path path) {
    String scheme = path.toUri().getScheme();
    if (scheme != null && !SCHEME.equals(scheme)) {
      throw new IllegalArgumentException("Wrong FS: " + path + ", expected: " + ROOT);
    }
  }

  @Override
  public Path getWorkingDirectory() {
    return new Path(SCHEME, null, fs.getWorkingDirectory().toUri().getPath());
  }

  private static Path local(Path path) {
    return new Path("file", null, path.toUri().getPath());
  }

  private static Path faulty(Path local) {
    return new Path(SCHEME, null, local.toUri().getPath());
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    Faults faults = faults(path);
    faults.beforeOpen(path);
    FSDataInputStream inner = fs.open(local(path), bufferSize);
    faults.opens.incrementAndGet();
    TOTAL_OPENS.incrementAndGet();
    FaultyStream stream = new FaultyStream(path, inner, faults);
    OPEN.put(
        stream,
        new Throwable("stream of " + path + " opened by " + Thread.currentThread().getName()));
    return new FSDataInputStream(stream);
  }

  @Override
  public FutureDataInputStreamBuilder openFile(Path path) throws IOException {
    return new FutureDataInputStreamBuilderImpl(this, path) {
      @Override
      public CompletableFuture<FSDataInputStream> build() throws IOException {
        return CompletableFuture.completedFuture(open(path, getBufferSize()));
      }

      @Override
      public FutureDataInputStreamBuilder getThisBuilder() {
        return this;
      }
    };
  }

  @Override
  protected CompletableFuture<FSDataInputStream> openFileWithOptions(
      Path path, OpenFileParameters parameters) throws IOException {
    return CompletableFuture.completedFuture(open(path, parameters.getBufferSize()));
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    FileStatus status = fs.getFileStatus(local(path));
    long length = status.isFile() ? faults(path).visibleLength(status.getLen()) : 0;
    // Permissions of the raw local status would be loaded by running a shell; none are needed.
    return new FileStatus(
        length,
        status.isDirectory(),
        1,
        status.getBlockSize(),
        status.getModificationTime(),
        status.getAccessTime(),
        FsPermission.getFileDefault(),
        "user",
        "group",
        makeQualified(faulty(status.getPath())));
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    FileStatus[] local = fs.listStatus(local(path));
    FileStatus[] result = new FileStatus[local.length];
    for (int i = 0; i < local.length; i++) {
      result[i] = getFileStatus(faulty(local[i].getPath()));
    }
    return result;
  }

  @Override
  public boolean exists(Path path) throws IOException {
    return fs.exists(local(path));
  }

  @Override
  public FSDataOutputStream create(
      Path path,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    return fs.create(
        local(path), permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    return fs.delete(local(path), recursive);
  }

  @Override
  public boolean mkdirs(Path path, FsPermission permission) throws IOException {
    return fs.mkdirs(local(path), permission);
  }

  @Override
  public boolean rename(Path from, Path to) throws IOException {
    return fs.rename(local(from), local(to));
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * The exception every injected failure throws, so tests can find it in a cause chain. Its message
   * does not name the file, so a test can check that the reader's exception does.
   */
  public static final class InjectedFault extends IOException {
    private static final long serialVersionUID = 1L;

    public InjectedFault(String message) {
      super(message);
    }
  }

  /**
   * The faults of one file, and its counters. Setters return {@code this} and may be called while
   * the file is being read; a read sees the settings at the moment it starts.
   */
  public static final class Faults {

    private final String path;
    private final AtomicLong opens = new AtomicLong();
    private final AtomicLong closes = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicInteger failuresInjected = new AtomicInteger();

    private volatile long failReadNumber;
    private volatile long failFrom = -1;
    private volatile long failTo = -1;
    private volatile long blockFrom = -1;
    private volatile long blockTo = -1;
    private volatile CountDownLatch gate;
    private final AtomicInteger blockedReads = new AtomicInteger();
    private volatile long hangFrom = -1;
    private volatile long hangTo = -1;
    private volatile CountDownLatch hangGate;
    private final AtomicInteger hungReads = new AtomicInteger();
    private volatile int maxBytesPerRead;
    private volatile long delayMillis;
    private volatile long visibleLength = -1;
    private volatile boolean failOnClose;
    private volatile boolean failOnOpen;
    private final java.util.concurrent.atomic.AtomicReference<IoAction> onNextOpen =
        new java.util.concurrent.atomic.AtomicReference<>();

    private Faults(String path) {
      this.path = path;
    }

    /** The read call with this 1-based number (counted over every stream of the file) fails. */
    public Faults failReadNumber(long k) {
      this.failReadNumber = k;
      return this;
    }

    /** Every read that touches a byte of {@code [from, to)} fails. */
    public Faults failReadsTouching(long from, long to) {
      this.failFrom = from;
      this.failTo = to;
      return this;
    }

    /** Every read touching {@code [from, to)} waits (interruptibly) until {@link #release()}. */
    public Faults blockReadsTouching(long from, long to) {
      this.gate = new CountDownLatch(1);
      this.blockFrom = from;
      this.blockTo = to;
      return this;
    }

    /**
     * Every read touching {@code [from, to)} hangs, ignoring interrupts (as a read stuck in a
     * kernel call or on a dead connection does), until {@link #release()} or until its stream is
     * closed from another thread, which makes it fail.
     */
    public Faults hangReadsTouching(long from, long to) {
      this.hangGate = new CountDownLatch(1);
      this.hangFrom = from;
      this.hangTo = to;
      return this;
    }

    /** Lets blocked and hung reads go on. */
    public Faults release() {
      CountDownLatch latch = gate;
      if (latch != null) {
        latch.countDown();
      }
      CountDownLatch hang = hangGate;
      if (hang != null) {
        hang.countDown();
      }
      return this;
    }

    /** Each read returns at most {@code bytes} bytes (0 for no limit). */
    public Faults shortReads(int bytes) {
      this.maxBytesPerRead = bytes;
      return this;
    }

    /**
     * Each read first sleeps this long; an interrupt ends the sleep with InterruptedIOException.
     */
    public Faults delayMillis(long millis) {
      this.delayMillis = millis;
      return this;
    }

    /** The file appears {@code length} bytes long: in its status and to reads past it. */
    public Faults truncateTo(long length) {
      this.visibleLength = length;
      return this;
    }

    /** Closing a stream of the file throws (after the stream is released and counted). */
    public Faults failOnClose() {
      this.failOnClose = true;
      return this;
    }

    /** Something done to the file system, such as rewriting the file. */
    @FunctionalInterface
    public interface IoAction {
      void run() throws IOException;
    }

    /**
     * Runs {@code action} once, at the next open of the file, before the file is opened: a rewrite
     * there lands between a reader's status of the file and its read.
     */
    public Faults onNextOpen(IoAction action) {
      onNextOpen.set(action);
      return this;
    }

    /** Opening the file throws. */
    public Faults failOnOpen() {
      this.failOnOpen = true;
      return this;
    }

    /** Removes every fault (counters stay). */
    public Faults clear() {
      failReadNumber = 0;
      failFrom = failTo = blockFrom = blockTo = hangFrom = hangTo = -1;
      release();
      maxBytesPerRead = 0;
      delayMillis = 0;
      visibleLength = -1;
      failOnClose = false;
      failOnOpen = false;
      onNextOpen.set(null);
      return this;
    }

    public long opens() {
      return opens.get();
    }

    public long closes() {
      return closes.get();
    }

    /** Streams of this file open now. */
    public long openStreams() {
      return opens.get() - closes.get();
    }

    /** Read calls so far (sequential and positioned). */
    public long reads() {
      return reads.get();
    }

    public long bytesRead() {
      return bytesRead.get();
    }

    /** Reads failed on purpose so far. */
    public int failuresInjected() {
      return failuresInjected.get();
    }

    /** Reads waiting on {@link #blockReadsTouching} now. */
    public int blockedReads() {
      return blockedReads.get();
    }

    /** Reads hanging on {@link #hangReadsTouching} now. */
    public int hungReads() {
      return hungReads.get();
    }

    /**
     * Hangs a read of {@code [position, position + length)} that touches the hang range until
     * release or until {@code closed} says its stream was closed (then it fails). Runs outside the
     * stream's lock, so that another thread can close the stream meanwhile.
     */
    void hangIfAsked(long position, int length, java.util.function.BooleanSupplier closed)
        throws IOException {
      CountDownLatch latch = hangGate;
      if (latch == null || !overlaps(position, position + Math.max(length, 1), hangFrom, hangTo)) {
        return;
      }
      hungReads.incrementAndGet();
      boolean interrupted = false;
      try {
        while (!closed.getAsBoolean()) {
          try {
            if (latch.await(5, TimeUnit.MILLISECONDS)) {
              return;
            }
          } catch (InterruptedException e) {
            interrupted = true; // ignored, and kept for the caller
          }
        }
        throw new IOException("the stream of " + path + " was closed while a read hung");
      } finally {
        hungReads.decrementAndGet();
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }

    long visibleLength(long actual) {
      long visible = visibleLength;
      return visible < 0 ? actual : Math.min(actual, visible);
    }

    void beforeOpen(Path p) throws IOException {
      IoAction action = onNextOpen.getAndSet(null);
      if (action != null) {
        action.run();
      }
      if (failOnOpen) {
        failuresInjected.incrementAndGet();
        throw new InjectedFault("injected open failure");
      }
    }

    /** Applies the faults to a read of up to {@code length} bytes at {@code position}. */
    int beforeRead(long position, int length) throws IOException {
      long number = reads.incrementAndGet();
      long delay = delayMillis;
      if (delay > 0) {
        sleep(delay);
      }
      int max = maxBytesPerRead;
      int len = max > 0 ? Math.min(length, max) : length;
      long end = position + Math.max(len, 1);
      CountDownLatch latch = gate;
      if (latch != null && overlaps(position, end, blockFrom, blockTo)) {
        blockedReads.incrementAndGet();
        try {
          while (!latch.await(10, TimeUnit.MILLISECONDS)) {
            // bounded waits so a forgotten release cannot hang forever past the test's timeout
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while a read of " + path + " was blocked");
        } finally {
          blockedReads.decrementAndGet();
        }
      }
      if (number == failReadNumber) {
        failuresInjected.incrementAndGet();
        // The message leaves the file out on purpose: readers must name it themselves.
        throw new InjectedFault(
            "injected failure of read #"
                + number
                + " at ["
                + position
                + ", "
                + (position + len)
                + ")");
      }
      if (overlaps(position, end, failFrom, failTo)) {
        failuresInjected.incrementAndGet();
        throw new InjectedFault(
            "injected failure of a read at ["
                + position
                + ", "
                + (position + len)
                + ") touching ["
                + failFrom
                + ", "
                + failTo
                + ")");
      }
      return len;
    }

    private static boolean overlaps(long from, long to, long rangeFrom, long rangeTo) {
      return rangeFrom >= 0 && from < rangeTo && rangeFrom < to;
    }

    private void sleep(long millis) throws InterruptedIOException {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted during an injected delay reading " + path);
      }
    }
  }

  /**
   * A stream of one file with its faults applied. Confined to one thread at a time, like the local
   * stream it wraps; close is idempotent and counted once.
   */
  private static final class FaultyStream extends FSInputStream {

    private final Path path;
    private final FSDataInputStream in;
    private final Faults faults;

    /** Volatile: a hung read (outside the lock) watches it. */
    private volatile boolean closed;

    FaultyStream(Path path, FSDataInputStream in, Faults faults) {
      this.path = path;
      this.in = in;
      this.faults = faults;
    }

    private long length() throws IOException {
      return faults.visibleLength(Long.MAX_VALUE);
    }

    private void checkOpen() throws IOException {
      if (closed) {
        throw new IOException("stream of " + path + " is closed");
      }
    }

    @Override
    public synchronized void seek(long position) throws IOException {
      checkOpen();
      if (position < 0) {
        throw new EOFException("negative seek to " + position + " in " + path);
      }
      if (position > length()) {
        throw new EOFException("seek to " + position + " past the end of " + path);
      }
      in.seek(position);
    }

    @Override
    public synchronized long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n <= 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      checkOpen();
      faults.hangIfAsked(in.getPos(), length, () -> closed);
      return readLocked(buffer, offset, length);
    }

    private synchronized int readLocked(byte[] buffer, int offset, int length) throws IOException {
      checkOpen();
      Objects.checkFromIndexSize(offset, length, buffer.length);
      if (length == 0) {
        return 0;
      }
      long position = in.getPos();
      int len = limit(position, faults.beforeRead(position, length));
      if (len <= 0) {
        return -1;
      }
      int n = in.read(buffer, offset, len);
      if (n > 0) {
        faults.bytesRead.addAndGet(n);
      }
      return n;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      checkOpen();
      faults.hangIfAsked(position, length, () -> closed);
      checkOpen();
      Objects.checkFromIndexSize(offset, length, buffer.length);
      if (length == 0) {
        return 0;
      }
      int len = limit(position, faults.beforeRead(position, length));
      if (len <= 0) {
        return -1;
      }
      int n = in.read(position, buffer, offset, len);
      if (n > 0) {
        faults.bytesRead.addAndGet(n);
      }
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      int done = 0;
      while (done < length) {
        int n = read(position + done, buffer, offset + done, length - done);
        if (n < 0) {
          throw new EOFException(
              "end of " + path + " reached reading " + length + " bytes at " + position);
        }
        done += n;
      }
    }

    /** Cuts a read at the visible end of the file. */
    private int limit(long position, int length) throws IOException {
      long remaining = length() - position;
      return (int) Math.max(0, Math.min(length, remaining));
    }

    @Override
    public synchronized int available() throws IOException {
      checkOpen();
      long remaining = length() - in.getPos();
      return (int) Math.max(0, Math.min(in.available(), remaining));
    }

    @Override
    public synchronized void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        in.close();
      } finally {
        OPEN.remove(this);
        faults.closes.incrementAndGet();
        TOTAL_CLOSES.incrementAndGet();
      }
      if (faults.failOnClose) {
        faults.failuresInjected.incrementAndGet();
        throw new InjectedFault("injected close failure");
      }
    }
  }
}
