package dev.prefetch.parquet.internal.io;

import dev.prefetch.spi.CountingInputStream;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.spi.WholeFile;
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
 * one vectored read concurrently); otherwise parquet-hadoop falls back to plain reads. The ranges
 * of a vectored read are joined into fewer requests where the gaps between them are small ({@link
 * ReadCoalescing}, {@link CoalescedReads}). A vectored read into a range reader's {@link
 * ChunkAllocator} allocates through its {@link ChunkAllocator#forVectoredReads()} view, since
 * parquet-hadoop never releases a vectored read's buffers itself.
 *
 * <p>A file of at most {@code read.whole-file-bytes} is a {@link WholeFile}: its first stream (the
 * footer's, while planning) reads it whole in one request, and every stream after reads the bytes
 * in memory.
 */
public final class CountingInputFile implements InputFile {

  /**
   * Ranges a row group's read asked for that its read-ahead did not hold (read then): 0 when the
   * read-ahead placed every byte its row group needs.
   */
  static final String READ_AHEAD_MISSES = "readAheadMissedRanges";

  /** The read policy parquet-hadoop's own input file asks an object store for. */
  private static final String READ_POLICY = "parquet, vector, random, adaptive";

  private final FileSystem fs;
  private final FileStatus status;
  private final ScanCounters counters;
  private final boolean vectored;
  private final ReadCoalescing coalescing;

  /** The file's bytes in memory when it is small enough to be read whole, else null. */
  private final WholeFile whole;

  /**
   * A counted file whose streams offer vectored reads when {@code vectored} and the filesystem's
   * do, with their ranges joined into requests as {@code coalescing} plans; read whole when it has
   * at most {@code wholeFileBytes} bytes.
   */
  public CountingInputFile(
      FileStatus status,
      Configuration conf,
      ScanCounters counters,
      boolean vectored,
      ReadCoalescing coalescing,
      long wholeFileBytes)
      throws IOException {
    this.status = Objects.requireNonNull(status, "status is null");
    this.fs = status.getPath().getFileSystem(conf);
    this.counters = Objects.requireNonNull(counters, "counters is null");
    this.vectored = vectored;
    this.coalescing = Objects.requireNonNull(coalescing, "coalescing is null");
    this.whole =
        status.getLen() <= wholeFileBytes
            ? new WholeFile(status.getPath().toString(), status.getLen(), this::openCounted)
            : null;
  }

  @Override
  public long getLength() {
    return status.getLen();
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    if (whole != null) {
      return HadoopStreams.wrap(whole.newStream()); // in memory: no vectored reads to route
    }
    return new VectoredGate(HadoopStreams.wrap(openCounted()), this);
  }

  /** Whether its streams read vectored: off the local filesystem, for a file not read whole. */
  public boolean readsVectored() {
    return vectored && whole == null;
  }

  /** Whether the file is read whole (see {@link WholeFile}). */
  boolean readWhole() {
    return whole != null;
  }

  private FSDataInputStream openCounted() throws IOException {
    CountingInputStream counting =
        new CountingInputStream(open(), counters, null, CountingInputStream.isLocal(fs), null);
    return new FSDataInputStream(counting);
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

  /** How this file's vectored reads (and a row group's offset indexes) are joined into requests. */
  public ReadCoalescing coalescing() {
    return vectored && whole == null ? coalescing : ReadCoalescing.OFF;
  }

  @Override
  public String toString() {
    return status.getPath().toString();
  }

  /**
   * Turns vectored reads off or on, joins their ranges and routes their buffers. Confined like its
   * stream.
   */
  public static final class VectoredGate extends ForwardingSeekableInputStream {
    private final CountingInputFile file;

    /** The next row group's chunks read ahead, served to its vectored read; null when none. */
    private ReadAhead ahead;

    VectoredGate(SeekableInputStream in, CountingInputFile file) {
      super(in);
      this.file = file;
    }

    /** Whether this stream reads vectored, so that reading ahead overlaps with decoding. */
    public boolean readsVectored() {
      return file.vectored;
    }

    /**
     * Issues the read of {@code spans} ({@code [offset, length]}, in file order) now, into buffers
     * of {@code allocator}, for the next vectored read that asks for bytes inside them.
     */
    public void readAhead(List<long[]> spans, ByteBufferAllocator allocator) throws IOException {
      ahead =
          ReadAhead.issue(
              in, spans, allocator, file.coalescing(), file.toString(), file.getLength());
    }

    /** Forgets what was read ahead (the reader starts another range than it announced). */
    public void dropReadAhead() {
      ahead = null;
    }

    @Override
    public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
      return file.vectored && in.readVectoredAvailable(allocator);
    }

    @Override
    public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
        throws IOException {
      if (!file.vectored) {
        throw new UnsupportedOperationException("vectored reads are off for this file");
      }
      // parquet-hadoop never releases a vectored read's buffers: the range reader's allocator
      // takes them back itself once the row group is done (see ChunkAllocator).
      ByteBufferAllocator buffers =
          allocator instanceof ChunkAllocator chunks ? chunks.forVectoredReads() : allocator;
      if (ahead != null) {
        List<ParquetFileRange> rest = ahead.serve(ranges);
        ahead = null; // one row group's read: what it did not ask for is not asked for later
        file.counters.add(READ_AHEAD_MISSES, rest.size());
        if (rest.isEmpty()) {
          return;
        }
        ranges = rest;
      }
      if (!file.coalescing.enabled()) {
        in.readVectored(ranges, buffers);
        return;
      }
      CoalescedReads.read(in, ranges, buffers, file.coalescing, file.toString(), file.getLength());
    }
  }
}
