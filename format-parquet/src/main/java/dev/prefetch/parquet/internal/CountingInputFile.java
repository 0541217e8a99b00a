package dev.prefetch.parquet.internal;

import dev.prefetch.internal.io.CountingInputStream;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.functional.FutureIO;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} whose streams read through core's {@link CountingInputStream}, which
 * counts every byte and request into the reader's {@link ScanCounters} and cuts large local reads,
 * as ORC's streams do.
 *
 * <p>Vectored reads are offered only when asked for (an object store's client fetches the ranges of
 * one vectored read concurrently); otherwise parquet-hadoop falls back to plain reads. A vectored
 * read into a range reader's {@link ChunkAllocator} allocates through its {@link
 * ChunkAllocator#forVectoredReads()} view, since parquet-hadoop never releases a vectored read's
 * buffers itself.
 */
public final class CountingInputFile implements InputFile {

  /** The read policy parquet-hadoop's own input file asks an object store for. */
  private static final String READ_POLICY = "parquet, vector, random, adaptive";

  private final FileSystem fs;
  private final FileStatus status;
  private final ScanCounters counters;
  private final boolean vectored;

  /**
   * A counted file whose streams offer vectored reads when {@code vectored} and the filesystem's
   * do.
   */
  public CountingInputFile(
      FileStatus status, Configuration conf, ScanCounters counters, boolean vectored)
      throws IOException {
    this.status = Objects.requireNonNull(status, "status is null");
    this.fs = status.getPath().getFileSystem(conf);
    this.counters = Objects.requireNonNull(counters, "counters is null");
    this.vectored = vectored;
  }

  @Override
  public long getLength() {
    return status.getLen();
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    CountingInputStream counting =
        new CountingInputStream(open(), counters, null, CountingInputStream.isLocal(fs), null);
    return new VectoredGate(HadoopStreams.wrap(new FSDataInputStream(counting)), vectored);
  }

  /** Opens the file with its known status (no second lookup on an object store). */
  private FSDataInputStream open() throws IOException {
    try {
      return FutureIO.awaitFuture(
          fs.openFile(status.getPath())
              .withFileStatus(status)
              .opt("fs.option.openfile.read.policy", READ_POLICY)
              .build());
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return fs.open(status.getPath()); // a filesystem without openFile's options
    }
  }

  @Override
  public String toString() {
    return status.getPath().toString();
  }

  /** Turns vectored reads off or on, and routes their buffers. Confined like its stream. */
  static final class VectoredGate extends ForwardingSeekableInputStream {
    private final boolean vectored;

    VectoredGate(SeekableInputStream in, boolean vectored) {
      super(in);
      this.vectored = vectored;
    }

    @Override
    public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
      return vectored && in.readVectoredAvailable(allocator);
    }

    @Override
    public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
        throws IOException {
      if (!vectored) {
        throw new UnsupportedOperationException("vectored reads are off for this file");
      }
      // parquet-hadoop never releases a vectored read's buffers: the range reader's allocator
      // takes them back itself once the row group is done (see ChunkAllocator).
      in.readVectored(
          ranges,
          allocator instanceof ChunkAllocator chunks ? chunks.forVectoredReads() : allocator);
    }
  }
}
