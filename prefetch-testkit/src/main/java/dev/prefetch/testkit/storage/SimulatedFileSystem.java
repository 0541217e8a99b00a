package dev.prefetch.testkit.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.impl.OpenFileParameters;
import org.apache.hadoop.util.Progressable;

/**
 * Local files read the way an object store serves them: every storage request (each positioned
 * read, each read after a seek or an open) waits a fixed first-byte latency, and each open stream
 * transfers at most a fixed number of bytes per second. A vectored read sends its ranges as
 * concurrent requests (at most {@value #DEFAULT_VECTORED} at once unless {@value
 * #VECTORED_REQUESTS} says otherwise), as S3A does.
 *
 * <p>Paths are {@code simulated:///absolute/local/path}. Register the scheme with {@link
 * #configure(Configuration, long, double)}; the latency and bandwidth are read from the
 * configuration keys {@value #LATENCY_MS} and {@value #BANDWIDTH_MBPS} (MiB per second, 0 for no
 * cap). Writes are not supported: this is a read-only view for scans.
 */
public final class SimulatedFileSystem extends FilterFileSystem {

  public static final String SCHEME = "simulated";
  public static final String LATENCY_MS = "simulated.latency-ms";
  public static final String BANDWIDTH_MBPS = "simulated.bandwidth-mbps";

  /** Requests one vectored read keeps in flight at most (default {@value #DEFAULT_VECTORED}). */
  public static final String VECTORED_REQUESTS = "simulated.vectored-requests";

  public static final int DEFAULT_VECTORED = 8;

  private static final URI ROOT = URI.create(SCHEME + ":///");

  private long latencyNanos;
  private double bytesPerSecond;
  private int vectoredRequests;

  public SimulatedFileSystem() {
    super(new RawLocalFileSystem());
  }

  /** Registers the scheme in {@code conf} with the given request latency and stream bandwidth. */
  public static void configure(Configuration conf, long latencyMs, double bandwidthMbps) {
    if (latencyMs < 0) {
      throw new IllegalArgumentException("latency must not be negative: " + latencyMs + " ms");
    }
    if (bandwidthMbps < 0 || Double.isNaN(bandwidthMbps)) {
      throw new IllegalArgumentException(
          "bandwidth must not be negative: " + bandwidthMbps + " MB/s");
    }
    conf.set("fs." + SCHEME + ".impl", SimulatedFileSystem.class.getName());
    // Each configuration gets its own instance, so that its latency and bandwidth apply.
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
    conf.setLong(LATENCY_MS, latencyMs);
    conf.setDouble(BANDWIDTH_MBPS, bandwidthMbps);
  }

  /** The simulated path of a local file. */
  public static Path pathOf(java.nio.file.Path local) {
    return new Path(SCHEME, null, local.toAbsolutePath().normalize().toUri().getPath());
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(URI.create("file:///"), conf);
    setConf(conf);
    this.latencyNanos = conf.getLong(LATENCY_MS, 0) * 1_000_000L;
    this.bytesPerSecond = conf.getDouble(BANDWIDTH_MBPS, 0) * (1 << 20);
    this.vectoredRequests = conf.getInt(VECTORED_REQUESTS, DEFAULT_VECTORED);
    if (vectoredRequests < 1) {
      throw new IllegalArgumentException(
          VECTORED_REQUESTS + " must be at least 1: " + vectoredRequests);
    }
  }

  @Override
  public URI getUri() {
    return ROOT;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  protected void checkPath(Path path) {
    String scheme = path.toUri().getScheme();
    if (scheme != null && !scheme.equalsIgnoreCase(SCHEME)) {
      throw new IllegalArgumentException("Wrong FS: " + path + ", expected: " + ROOT);
    }
  }

  private static Path local(Path path) {
    return new Path("file", null, path.toUri().getPath());
  }

  private static Path simulated(Path local) {
    return new Path(SCHEME, null, local.toUri().getPath());
  }

  private FileStatus simulated(FileStatus status) throws IOException {
    FileStatus copy = new FileStatus(status);
    copy.setPath(simulated(status.getPath()));
    return copy;
  }

  @Override
  public Path makeQualified(Path path) {
    return simulated(local(path));
  }

  @Override
  public Path getWorkingDirectory() {
    return simulated(fs.getWorkingDirectory());
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    return simulated(fs.getFileStatus(local(path)));
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    FileStatus[] statuses = fs.listStatus(local(path));
    FileStatus[] out = new FileStatus[statuses.length];
    for (int i = 0; i < statuses.length; i++) {
      out[i] = simulated(statuses[i]);
    }
    return out;
  }

  @Override
  public boolean exists(Path path) throws IOException {
    try {
      getFileStatus(path);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    Path file = local(path);
    FileStatus status = fs.getFileStatus(file);
    if (status.isDirectory()) {
      throw new FileNotFoundException(path + " is a directory");
    }
    return new FSDataInputStream(
        new SimulatedInputStream(
            fs.open(file, bufferSize),
            status.getLen(),
            latencyNanos,
            bytesPerSecond,
            vectoredRequests));
  }

  @Override
  protected CompletableFuture<FSDataInputStream> openFileWithOptions(
      Path path, OpenFileParameters parameters) throws IOException {
    CompletableFuture<FSDataInputStream> result = new CompletableFuture<>();
    try {
      result.complete(open(path, parameters.getBufferSize()));
    } catch (IOException e) {
      result.completeExceptionally(e);
    }
    return result;
  }

  @Override
  public org.apache.hadoop.fs.FSDataOutputStream create(
      Path f,
      org.apache.hadoop.fs.permission.FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    throw new IOException("simulated storage is read-only: " + f);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw new IOException("simulated storage is read-only: " + f);
  }
}
