package dev.prefetch.testing;

import dev.prefetch.spi.ForwardingInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.impl.OpenFileParameters;

/**
 * A Hadoop filesystem over the local disk, under its own scheme {@value #SCHEME}, that counts what
 * readers do to each file: opens, closes, read calls, positioned reads, bytes read and {@code
 * getFileStatus} calls. Tests use it to prove, for example, that a cached footer is not read again
 * or that a reader closes every stream it opened.
 *
 * <pre>{@code
 * Configuration conf = CountingFileSystem.configuration();
 * Path path = CountingFileSystem.path(localFile);          // counting:/tmp/.../data.parquet
 * ... read path with conf ...
 * CountingFileSystem.Counts counts = CountingFileSystem.counts(localFile);
 * assertThat(counts.opens()).isEqualTo(counts.closes());
 * }</pre>
 *
 * <h2>Design</h2>
 *
 * <p><b>Files.</b> The inner filesystem is Hadoop's raw local filesystem, answering to {@code
 * counting:///} instead of {@code file:///}, so paths and statuses keep this scheme. There is no
 * checksum layer: {@code .crc} files are neither read nor written.
 *
 * <p><b>Counters</b> are process-wide and kept per file, keyed by the absolute local path, because
 * Hadoop creates and caches filesystem instances on its own terms (one reader may see several
 * instances). Tests stay independent by reading and resetting the counters of their own (temporary)
 * files, never by {@link #resetAll()} while other tests run in parallel.
 *
 * <p><b>Streams.</b> {@code open} and {@code openFile} return an {@link FSDataInputStream} around a
 * counting stream with the inner stream's abilities, no more: it is always {@code Seekable} and
 * {@code PositionedReadable}, and it implements {@code ByteBufferReadable} (and {@code
 * ByteBufferPositionedReadable}) only when the inner stream does, answering {@code hasCapability}
 * alike. Readers probe these (parquet-hadoop checks the capability, then {@code instanceof}) to
 * choose between byte-array and ByteBuffer reads, so they take the same path as without the
 * wrapper; the raw local stream has neither, so local reads use byte arrays. An inner stream with
 * positioned but not plain ByteBuffer reads is treated as having neither. Vectored reads use
 * Hadoop's default, which goes through the counted positioned reads.
 *
 * <p><b>Threads.</b> Counters are {@link LongAdder}s in a concurrent map; any number of threads may
 * open, read and query at once. A stream itself is no more thread-safe than Hadoop's.
 */
public final class CountingFileSystem extends FilterFileSystem {

  /** The URI scheme this filesystem answers to. */
  public static final String SCHEME = "counting";

  private static final URI ROOT = URI.create(SCHEME + ":///");
  private static final Map<String, FileCounters> COUNTERS = new ConcurrentHashMap<>();

  /** Created by Hadoop through {@code fs.counting.impl}. */
  public CountingFileSystem() {
    super(new LocalUnderCountingScheme());
  }

  /** A new Hadoop configuration with the {@value #SCHEME} scheme registered. */
  public static Configuration configuration() {
    return register(new Configuration());
  }

  /** Registers the {@value #SCHEME} scheme in {@code conf} and returns it. */
  public static Configuration register(Configuration conf) {
    conf.setClass("fs." + SCHEME + ".impl", CountingFileSystem.class, FileSystem.class);
    return conf;
  }

  /** The {@value #SCHEME} path of a local file, e.g. {@code counting:/tmp/x/data.parquet}. */
  public static Path path(java.nio.file.Path local) {
    String absolute = local.toAbsolutePath().normalize().toUri().getPath();
    return new Path(SCHEME, null, absolute);
  }

  /** What has been counted for {@code local} since the last reset; zeros if nothing. */
  public static Counts counts(java.nio.file.Path local) {
    return counts(path(local));
  }

  /** What has been counted for the file at the absolute {@code path} (any scheme). */
  public static Counts counts(Path path) {
    FileCounters counters = COUNTERS.get(key(path));
    return counters == null ? Counts.ZERO : counters.snapshot();
  }

  /** Sets the counters of {@code local} back to zero. */
  public static void reset(java.nio.file.Path local) {
    reset(path(local));
  }

  /** Sets the counters of the file at the absolute {@code path} back to zero. */
  public static void reset(Path path) {
    COUNTERS.remove(key(path));
  }

  /** Sets every file's counters back to zero. */
  public static void resetAll() {
    COUNTERS.clear();
  }

  private static String key(Path path) {
    Objects.requireNonNull(path, "path is null");
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException("path must be absolute: " + path);
    }
    return path.toUri().getPath();
  }

  private FileCounters counters(Path path) {
    return COUNTERS.computeIfAbsent(key(makeQualified(path)), k -> new FileCounters());
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return wrap(f, super.open(f, bufferSize));
  }

  /** Bound to this filesystem (the inherited one would open through the inner filesystem). */
  @Override
  public FutureDataInputStreamBuilder openFile(Path path) throws IOException {
    return createDataInputStreamBuilder(this, path);
  }

  @Override
  protected CompletableFuture<FSDataInputStream> openFileWithOptions(
      Path path, OpenFileParameters parameters) throws IOException {
    // The inner filesystem opens through its own open(), which does not count; wrap its result.
    return super.openFileWithOptions(path, parameters).thenApply(in -> wrap(path, in));
  }

  private FSDataInputStream wrap(Path path, FSDataInputStream in) {
    FileCounters counters = counters(path);
    counters.opens.increment();
    return new FSDataInputStream(CountingInputStream.over(in, counters));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    counters(f).fileStatusCalls.increment();
    return super.getFileStatus(f);
  }

  /**
   * The counters of one file at one moment.
   *
   * @param opens streams opened
   * @param closes those streams closed (each counted once, however often close is called)
   * @param readCalls sequential reads: {@code read()}, {@code read(byte[], int, int)}, {@code
   *     read(ByteBuffer)}
   * @param positionedReads {@code read(long, ...)} and {@code readFully(long, ...)} calls
   * @param bytesRead bytes returned by all of those
   * @param fileStatusCalls {@code getFileStatus} calls (also made by {@code exists}, {@code
   *     isFile})
   */
  public record Counts(
      long opens,
      long closes,
      long readCalls,
      long positionedReads,
      long bytesRead,
      long fileStatusCalls) {

    public static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0);

    /** Streams opened and not yet closed. */
    public long openStreams() {
      return opens - closes;
    }
  }

  /** The live counters of one file. */
  private static final class FileCounters {
    final LongAdder opens = new LongAdder();
    final LongAdder closes = new LongAdder();
    final LongAdder readCalls = new LongAdder();
    final LongAdder positionedReads = new LongAdder();
    final LongAdder bytesRead = new LongAdder();
    final LongAdder fileStatusCalls = new LongAdder();

    Counts snapshot() {
      return new Counts(
          opens.sum(),
          closes.sum(),
          readCalls.sum(),
          positionedReads.sum(),
          bytesRead.sum(),
          fileStatusCalls.sum());
    }
  }

  /**
   * Hadoop's raw local filesystem answering to {@code counting:///}: it checks and qualifies paths
   * against {@link #getUri()}, so paths of this scheme work and statuses carry it.
   */
  private static final class LocalUnderCountingScheme extends RawLocalFileSystem {
    @Override
    public URI getUri() {
      return ROOT;
    }

    @Override
    public String getScheme() {
      return SCHEME;
    }
  }

  /**
   * Counts the calls on one opened stream and passes each to the inner stream. This base class has
   * no ByteBuffer reads; see {@link #over}.
   */
  private static class CountingInputStream extends ForwardingInputStream
      implements StreamCapabilities {

    final FileCounters counters;
    private final AtomicBoolean closed = new AtomicBoolean();

    CountingInputStream(FSDataInputStream in, FileCounters counters) {
      super(in);
      this.counters = counters;
    }

    /** A counting stream over {@code in} with exactly its ByteBuffer abilities. */
    static CountingInputStream over(FSDataInputStream in, FileCounters counters) {
      boolean buffers = supports(in, StreamCapabilities.READBYTEBUFFER, ByteBufferReadable.class);
      boolean positionedBuffers =
          supports(in, StreamCapabilities.PREADBYTEBUFFER, ByteBufferPositionedReadable.class);
      if (buffers && positionedBuffers) {
        return new PositionedByteBufferCountingInputStream(in, counters);
      }
      return buffers
          ? new ByteBufferCountingInputStream(in, counters)
          : new CountingInputStream(in, counters);
    }

    /** Whether the innermost stream declares {@code capability} or implements {@code type}. */
    private static boolean supports(FSDataInputStream in, String capability, Class<?> type) {
      if (in.hasCapability(capability)) {
        return true;
      }
      InputStream wrapped = in.getWrappedStream();
      if (wrapped instanceof FSDataInputStream inner) {
        return supports(inner, capability, type);
      }
      return type.isInstance(wrapped);
    }

    int counted(int n) {
      if (n > 0) {
        counters.bytesRead.add(n);
      }
      return n;
    }

    @Override
    public int read() throws IOException {
      counters.readCalls.increment();
      int b = in.read();
      if (b >= 0) {
        counters.bytesRead.increment();
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      counters.readCalls.increment();
      return counted(in.read(b, off, len));
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      counters.positionedReads.increment();
      return counted(in.read(position, buffer, offset, length));
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      counters.positionedReads.increment();
      in.readFully(position, buffer, offset, length);
      counters.bytesRead.add(length);
    }

    @Override
    public long skip(long n) throws IOException {
      return in.skip(n);
    }

    @Override
    public boolean hasCapability(String capability) {
      // Only what this wrapper passes through; it lacks the rest (unbuffer, IOStatistics...).
      return switch (capability.toLowerCase(Locale.ROOT)) {
        case StreamCapabilities.READBYTEBUFFER -> this instanceof ByteBufferReadable;
        case StreamCapabilities.PREADBYTEBUFFER -> this instanceof ByteBufferPositionedReadable;
        default -> false;
      };
    }

    @Override
    public void close() throws IOException {
      if (closed.compareAndSet(false, true)) {
        counters.closes.increment();
      }
      in.close();
    }

    @Override
    public String toString() {
      return "CountingInputStream[" + in + "]";
    }
  }

  /** A counting stream over an inner stream that reads into ByteBuffers. */
  private static class ByteBufferCountingInputStream extends CountingInputStream
      implements ByteBufferReadable {

    ByteBufferCountingInputStream(FSDataInputStream in, FileCounters counters) {
      super(in, counters);
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      counters.readCalls.increment();
      return counted(in.read(buf));
    }
  }

  /** A counting stream over an inner stream that also reads ByteBuffers at a position. */
  private static final class PositionedByteBufferCountingInputStream
      extends ByteBufferCountingInputStream implements ByteBufferPositionedReadable {

    PositionedByteBufferCountingInputStream(FSDataInputStream in, FileCounters counters) {
      super(in, counters);
    }

    @Override
    public int read(long position, ByteBuffer buf) throws IOException {
      counters.positionedReads.increment();
      return counted(in.read(position, buf));
    }

    @Override
    public void readFully(long position, ByteBuffer buf) throws IOException {
      counters.positionedReads.increment();
      int length = buf.remaining();
      in.readFully(position, buf);
      counters.bytesRead.add(length);
    }
  }
}
