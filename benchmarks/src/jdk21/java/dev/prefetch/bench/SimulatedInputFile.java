package dev.prefetch.bench;

import dev.hardwood.InputFile;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;

/**
 * A Hardwood {@link InputFile} with the remote model's costs: each range request waits the
 * first-byte latency and then transfers at the per-connection bandwidth (each request is its own
 * connection). Waits are interruptible.
 */
final class SimulatedInputFile implements InputFile {

  private final InputFile inner;
  private final long latencyNanos;
  private final double bytesPerSecond;

  SimulatedInputFile(InputFile inner, long latencyMs, double bandwidthMbps) {
    this.inner = inner;
    this.latencyNanos = latencyMs * 1_000_000L;
    this.bytesPerSecond = bandwidthMbps * (1 << 20);
  }

  @Override
  public void open() throws IOException {
    inner.open();
  }

  @Override
  public ByteBuffer readRange(long offset, int length) throws IOException {
    long start = System.nanoTime();
    ByteBuffer data = inner.readRange(offset, length);
    long due = start + latencyNanos + (long) (length * 1e9 / bytesPerSecond);
    long wait = due - System.nanoTime();
    if (wait > 0) {
      try {
        Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for simulated storage");
      }
    }
    return data;
  }

  @Override
  public long length() throws IOException {
    return inner.length();
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public void close() throws IOException {
    inner.close();
  }
}
