package dev.prefetch.orc.internal;

import dev.prefetch.DataFile;
import dev.prefetch.orc.OrcStripeFooters;
import dev.prefetch.orc.internal.metadata.OrcChecks;
import dev.prefetch.orc.internal.stripe.VectoredRead;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.orc.CompressionKind;
import org.apache.orc.DataReader;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.BufferChunkList;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.OrcCodecPool;

/**
 * orc-core's access to one stripe's bytes for one record reader: slices of the plan's {@link
 * StripeBuffers} when the stripe is shared whole; for a stripe read in part or under a predicate,
 * the reads the plan's other readers of the stripe kept ({@link StripeRequests}) and, for the rest,
 * reads through its range reader's stream, kept in turn. The requests of one call go out together
 * ({@link VectoredRead}) on storage that is not local.
 *
 * <p>orc-core clones the instance it is given for each record reader; a clone shares the range
 * reader's stream (which the range reader closes) and takes a decompressor of its own from
 * orc-core's pool, returned on {@link #close()}. Confined to its range reader's thread.
 *
 * <p>Memory: the bytes it reads for a stripe not shared count in the range reader's ledger from
 * their allocation (before the read fills them) until orc-core releases its buffers or closes this
 * reader; a shared stripe's arrays, and kept reads, are counted by {@link StripeBuffers} and {@link
 * StripeRequests}.
 */
final class SharedDataReader implements DataReader {

  private final DataFile file;
  private final FSDataInputStream in;
  private final MemoryLedger ledger;
  private final StripeBuffers buffers;
  private final StripeRequests requests;

  /** Bytes of this clone's own reads, counted in {@link #ledger} until released. */
  private long heldBytes;

  private final int stripe;
  private final CompressionKind compression;
  private final int bufferSize;
  private InStream.StreamOptions options;

  /**
   * @param file the file, for messages
   * @param in the range reader's stream
   * @param ledger the range reader's ledger
   * @param buffers the plan's shared stripe bytes
   * @param requests the plan's kept reads of stripes not shared whole
   * @param stripe the stripe the record reader reads
   * @param compression the file's compression
   * @param bufferSize the file's compression block size
   */
  SharedDataReader(
      DataFile file,
      FSDataInputStream in,
      MemoryLedger ledger,
      StripeBuffers buffers,
      StripeRequests requests,
      int stripe,
      CompressionKind compression,
      int bufferSize) {
    this.file = file;
    this.in = in;
    this.ledger = ledger;
    this.buffers = buffers;
    this.requests = requests;
    this.stripe = stripe;
    this.compression = compression;
    this.bufferSize = bufferSize;
  }

  @Override
  public void open() {
    // the stream is the range reader's, open already
  }

  @Override
  public OrcProto.StripeFooter readStripeFooter(StripeInformation info) throws IOException {
    if (buffers.shares(stripe)) {
      return buffers.footer(stripe, this::readFooter);
    }
    if (requests.shares(stripe)) {
      return requests.footer(stripe, info, this::readFooter);
    }
    return readFooter(info);
  }

  private OrcProto.StripeFooter readFooter(StripeInformation info) throws IOException {
    long offset = info.getOffset() + info.getIndexLength() + info.getDataLength();
    int length = Math.toIntExact(info.getFooterLength());
    byte[] bytes = new byte[length];
    in.readFully(offset, bytes, 0, length);
    OrcProto.StripeFooter footer = OrcStripeFooters.parse(bytes, offset, getCompressionOptions());
    // orc-core sizes stream buffers and dictionaries from it: check before it sees them.
    OrcChecks.checkStripeFooter(file, stripe, info, footer, compression);
    return footer;
  }

  @Override
  public BufferChunkList readFileData(BufferChunkList range, boolean doForceDirect)
      throws IOException {
    boolean kept = !doForceDirect && !buffers.shares(stripe) && requests.shares(stripe);
    Object lock = kept ? requests.lock(stripe) : null;
    try {
      readChunks(range, doForceDirect, lock);
    } finally {
      if (lock != null) {
        requests.unlock(lock);
      }
    }
    return range;
  }

  /**
   * Gives every chunk without data its bytes: a slice of the shared stripe or of a kept read
   * ({@code lock} held, else null) where there is one, else from requests issued together.
   */
  private void readChunks(BufferChunkList range, boolean doForceDirect, Object lock)
      throws IOException {
    List<BufferChunk> runs = new ArrayList<>(); // first chunk of each run, then the one after it
    List<VectoredRead.Region> regions = new ArrayList<>();
    BufferChunk chunk = range.get();
    while (chunk != null) {
      BufferChunk next = (BufferChunk) chunk.next;
      if (!chunk.hasData()) {
        ByteBuffer slice = null;
        if (!doForceDirect && buffers.shares(stripe)) {
          slice = buffers.slice(stripe, chunk.getOffset(), chunk.getLength(), in, ledger);
        } else if (lock != null) {
          slice = requests.cached(lock, chunk.getOffset(), chunk.getLength());
        }
        if (slice == null) {
          runs.add(chunk);
          next = planRun(chunk, regions);
          runs.add(next);
        } else {
          chunk.setChunk(slice);
        }
      }
      chunk = next;
    }
    if (buffers.together()) {
      VectoredRead.read(in, regions, file, ledger); // the stripe's requests, issued together
    } else {
      for (VectoredRead.Region region : regions) {
        in.readFully(region.position(), region.array(), 0, region.length());
      }
    }
    if (lock != null && !regions.isEmpty()) {
      // the stripe's entry counts them from here on, and the plan's other readers take them
      requests.keep(lock, regions, ledger);
      for (VectoredRead.Region region : regions) {
        heldBytes -= region.length();
      }
    }
    for (int i = 0; i < regions.size(); i++) {
      fill(runs.get(2 * i), runs.get(2 * i + 1), regions.get(i), doForceDirect);
    }
  }

  /**
   * Plans one request for {@code first} and the chunks right after it that continue it without a
   * gap (its array allocated and counted); returns the chunk after them.
   */
  private BufferChunk planRun(BufferChunk first, List<VectoredRead.Region> regions) {
    long start = first.getOffset();
    long end = first.getEnd();
    BufferChunk after = (BufferChunk) first.next;
    while (after != null
        && !after.hasData()
        && after.getOffset() == end
        && after.getEnd() - start <= Integer.MAX_VALUE) {
      end = after.getEnd();
      after = (BufferChunk) after.next;
    }
    byte[] bytes = new byte[Math.toIntExact(end - start)];
    ledger.acquire(bytes.length); // a read in flight counts
    heldBytes += bytes.length;
    regions.add(new VectoredRead.Region(start, bytes, 0, bytes.length));
    return after;
  }

  /** Gives the chunks from {@code first} to before {@code after} their slices of the run. */
  private static void fill(
      BufferChunk first, BufferChunk after, VectoredRead.Region run, boolean direct) {
    long start = run.position();
    ByteBuffer all = ByteBuffer.wrap(run.array());
    if (direct) {
      all = ByteBuffer.allocateDirect(run.length()).put(run.array());
      all.flip();
    }
    for (BufferChunk chunk = first; chunk != after; chunk = (BufferChunk) chunk.next) {
      ByteBuffer slice = all.duplicate();
      slice.position((int) (chunk.getOffset() - start));
      slice.limit((int) (chunk.getEnd() - start));
      chunk.setChunk(slice.slice());
    }
  }

  @Override
  public boolean isTrackingDiskRanges() {
    return false;
  }

  @Override
  @Deprecated
  public void releaseBuffer(ByteBuffer toRelease) {
    // nothing to release: buffers are ordinary heap arrays
  }

  @Override
  public void releaseAllBuffers() {
    // ordinary heap arrays, left to the collector; they no longer count as the reader's
    ledger.release(heldBytes);
    heldBytes = 0;
  }

  @Override
  public SharedDataReader clone() {
    return new SharedDataReader(
        file, in, ledger, buffers, requests, stripe, compression, bufferSize);
  }

  @Override
  public InStream.StreamOptions getCompressionOptions() {
    if (options == null) {
      options =
          InStream.options()
              .withCodec(OrcCodecPool.getCodec(compression))
              .withBufferSize(bufferSize);
    }
    return options;
  }

  @Override
  public void close() {
    releaseAllBuffers();
    if (options != null && options.getCodec() != null) {
      OrcCodecPool.returnCodec(compression, options.getCodec());
      options = null;
    }
  }
}
