package dev.prefetch.bench.trino;

import dev.prefetch.bench.BenchData;
import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Trino's Parquet data source over a local file (and the reads of the ORC one, {@code
 * trino.orc.OrcFileSource}), under a storage model of the benchmarks: {@code local} reads the file
 * directly; {@code remote} charges every read request the remote model's costs ({@value
 * BenchData#REMOTE_LATENCY_MS} ms first-byte latency, then {@value BenchData#REMOTE_BANDWIDTH_MBPS}
 * MiB/s; each request is a connection of its own), as Trino's object-store input charges a range
 * read. Trino's readers join nearby ranges into one request and read a request's bytes at once, so
 * a request here is one {@code readInternal} call.
 *
 * <p>Each source owns one file channel read with positional reads; a reader thread opens its own.
 */
public final class TrinoStorage {

  private TrinoStorage() {}

  /** A Parquet data source over {@code file} under {@code storage}. */
  static ParquetDataSource parquet(Path file, String storage, ParquetReaderOptions options)
      throws IOException {
    FileReads reads = FileReads.open(file, storage);
    return new AbstractParquetDataSource(
        new ParquetDataSourceId(file.toString()), reads.size(), options) {
      @Override
      protected void readInternal(long position, byte[] buffer, int offset, int length)
          throws IOException {
        reads.read(position, buffer, offset, length);
      }

      @Override
      public void close() throws IOException {
        reads.close();
      }
    };
  }

  /**
   * Positional reads of one file, each charged the storage model's cost of one request (the ORC
   * reader's data source, in its own class loader, reads through it too).
   */
  public record FileReads(FileChannel channel, long size, long latencyNanos, double bytesPerSecond)
      implements AutoCloseable {

    /** The file's reads under {@code storage}, "local" or "remote". */
    public static FileReads open(Path file, String storage) throws IOException {
      boolean remote =
          switch (storage) {
            case "local" -> false;
            case "remote" -> true;
            default ->
                throw new IllegalArgumentException(
                    "unknown storage '" + storage + "'; expected local or remote");
          };
      FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
      return new FileReads(
          channel,
          channel.size(),
          remote ? BenchData.REMOTE_LATENCY_MS * 1_000_000L : 0,
          remote ? BenchData.REMOTE_BANDWIDTH_MBPS * (1 << 20) : 0);
    }

    /** Reads {@code length} bytes at {@code position} into {@code buffer}, as one request. */
    public void read(long position, byte[] buffer, int offset, int length) throws IOException {
      long start = System.nanoTime();
      ByteBuffer target = ByteBuffer.wrap(buffer, offset, length);
      long at = position;
      while (target.hasRemaining()) {
        int n = channel.read(target, at);
        if (n < 0) {
          throw new EOFException(
              "read of " + length + " bytes at " + position + " passes the end of the file");
        }
        at += n;
      }
      if (latencyNanos > 0) {
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
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
