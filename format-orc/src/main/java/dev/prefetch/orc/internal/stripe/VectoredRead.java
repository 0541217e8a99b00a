package dev.prefetch.orc.internal.stripe;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.DataFile;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;

/**
 * Reads several byte ranges of a file into regions of the caller's arrays as one batch of requests
 * issued together: Hadoop's vectored read ({@link FSDataInputStream#readVectored}), which an object
 * store's client (S3A, ABFS, GCS) serves as concurrent ranged requests and any other filesystem as
 * positioned reads one after the other. The caller waits once for the slowest range rather than
 * once per range, so a stripe's reads cost about one first-byte latency instead of one each.
 *
 * <p>Not for local files: Hadoop's local filesystem serves vectored reads on threads of the JDK's
 * asynchronous channel pool, which outlive the read; local reads have no latency to hide anyway.
 *
 * <p>Zero copy where the filesystem allows it: the allocator it is given hands out the regions
 * themselves, matched by length in file order (the order in which Hadoop's default and the object
 * store clients allocate). A filesystem that allocates otherwise gets a buffer of its own (no
 * longer than the longest range, so never a size the caller did not check), and the bytes are
 * copied into place once every range has arrived, so a region handed to the wrong range is never
 * overwritten before its own bytes were taken from it.
 *
 * <p>Threads: called on one range reader's thread; the allocator may run on the filesystem's
 * threads and is synchronized. Every range is awaited, also after one failed, so no filesystem
 * thread still writes into a region once this returns or throws (except after an interrupt, when
 * the read is being closed: a late write then only stores the same file bytes again).
 */
public final class VectoredRead {

  private VectoredRead() {}

  /** The file's bytes {@code [position, position + length)}, to go to {@code array[offset...]}. */
  public record Region(long position, byte[] array, int offset, int length) {}

  /**
   * Reads every region through {@code in}, waiting for all of them; a single region is one
   * positioned read.
   *
   * @param ledger counts a buffer the filesystem allocates besides the regions while it is held
   * @throws IOException naming {@code file} and the range that failed
   */
  public static void read(
      FSDataInputStream in, List<Region> regions, DataFile file, MemoryLedger ledger)
      throws IOException {
    if (regions.isEmpty()) {
      return;
    }
    if (regions.size() == 1) {
      Region only = regions.get(0);
      in.readFully(only.position(), only.array(), only.offset(), only.length());
      return;
    }
    issue(in, regions, file, ledger).await();
  }

  /**
   * Issues the read of every region through {@code in} as one vectored read and returns at once
   * (where the filesystem's vectored read is asynchronous, as an object store's is); {@link
   * Issued#await()} waits for the bytes to be in place.
   *
   * @param ledger counts a buffer the filesystem allocates besides the regions while it is held
   */
  public static Issued issue(
      FSDataInputStream in, List<Region> regions, DataFile file, MemoryLedger ledger)
      throws IOException {
    List<Region> sorted = new ArrayList<>(regions);
    sorted.sort(Comparator.comparingLong(Region::position));
    List<FileRange> ranges = new ArrayList<>(sorted.size());
    int longest = 0;
    for (Region region : sorted) {
      ranges.add(FileRange.createFileRange(region.position(), region.length(), region));
      longest = Math.max(longest, region.length());
    }
    Allocator allocator = new Allocator(sorted, longest, file, ledger);
    try {
      in.readVectored(ranges, allocator);
    } catch (IOException | RuntimeException e) {
      allocator.releaseAll();
      throw e;
    }
    return new Issued(sorted, ranges, allocator, file);
  }

  /**
   * A vectored read issued and perhaps not arrived yet. {@link #await()} may be called by any
   * thread, and more than once: the first call waits for every range and moves the bytes into
   * place; later calls return (or fail) as the first did. Synchronized: the threads that need the
   * bytes wait for that one call.
   */
  public static final class Issued {
    private final List<Region> sorted;
    private final List<FileRange> ranges;
    private final Allocator allocator;
    private final DataFile file;

    @GuardedBy("this")
    private boolean done;

    @GuardedBy("this")
    private IOException failure;

    private Issued(
        List<Region> sorted, List<FileRange> ranges, Allocator allocator, DataFile file) {
      this.sorted = sorted;
      this.ranges = ranges;
      this.allocator = allocator;
      this.file = file;
    }

    /** Waits for every range and puts its bytes into its region. */
    public synchronized void await() throws IOException {
      if (done) {
        if (failure != null) {
          throw failure;
        }
        return;
      }
      try {
        place();
        done = true;
      } catch (InterruptedIOException e) {
        throw e; // not done: another thread may wait again, the ranges still arriving
      } catch (IOException e) {
        done = true;
        failure = e;
        throw e;
      } finally {
        if (done) {
          allocator.releaseAll();
        }
      }
    }

    private void place() throws IOException {
      ByteBuffer[] arrived = awaitAll(ranges, file);
      List<byte[]> misplaced = new ArrayList<>();
      for (int i = 0; i < sorted.size(); i++) {
        Region region = sorted.get(i);
        ByteBuffer data = arrived[i];
        if (data.remaining() != region.length()) {
          throw new IOException(
              "Cannot read "
                  + file
                  + ": the filesystem returned "
                  + data.remaining()
                  + " bytes for the "
                  + region.length()
                  + " at "
                  + region.position());
        }
        boolean inPlace =
            data.hasArray()
                && data.array() == region.array()
                && data.arrayOffset() + data.position() == region.offset();
        if (inPlace) {
          misplaced.add(null);
        } else {
          byte[] copy = new byte[region.length()];
          allocator.count(copy.length);
          data.duplicate().get(copy);
          misplaced.add(copy);
        }
      }
      for (int i = 0; i < sorted.size(); i++) {
        byte[] copy = misplaced.get(i);
        if (copy != null) {
          Region region = sorted.get(i);
          System.arraycopy(copy, 0, region.array(), region.offset(), region.length());
        }
      }
    }
  }

  /** Waits for every range; the first failure is raised after all have ended. */
  private static ByteBuffer[] awaitAll(List<FileRange> ranges, DataFile file) throws IOException {
    ByteBuffer[] arrived = new ByteBuffer[ranges.size()];
    IOException failure = null;
    for (int i = 0; i < ranges.size(); i++) {
      FileRange range = ranges.get(i);
      CompletableFuture<ByteBuffer> data = range.getData();
      String where =
          file + " at [" + range.getOffset() + ", " + (range.getOffset() + range.getLength()) + ")";
      if (data == null) {
        throw new IOException("Cannot read " + where + ": the filesystem gave the range no data");
      }
      try {
        arrived[i] = data.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        InterruptedIOException interrupted =
            new InterruptedIOException("interrupted while reading " + where);
        interrupted.initCause(e);
        throw interrupted;
      } catch (ExecutionException | CancellationException e) {
        if (failure == null) {
          Throwable cause =
              e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
          failure = new IOException("Cannot read " + where + ": " + cause, cause);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return arrived;
  }

  /**
   * Hands the filesystem the regions in file order, matched by length; any other request gets a
   * buffer of its own, checked against the longest range and counted until the read ends.
   */
  private static final class Allocator implements IntFunction<ByteBuffer> {
    private final List<Region> regions;
    private final boolean[] handedOut;
    private final int longest;
    private final DataFile file;
    private final MemoryLedger ledger;
    private long counted;

    Allocator(List<Region> regions, int longest, DataFile file, MemoryLedger ledger) {
      this.regions = regions;
      this.handedOut = new boolean[regions.size()];
      this.longest = longest;
      this.file = file;
      this.ledger = ledger;
    }

    @Override
    public synchronized ByteBuffer apply(int length) {
      for (int i = 0; i < regions.size(); i++) {
        Region region = regions.get(i);
        if (!handedOut[i] && region.length() == length) {
          handedOut[i] = true;
          return ByteBuffer.wrap(region.array(), region.offset(), length).slice();
        }
      }
      if (length < 0 || length > longest) {
        throw new IllegalArgumentException(
            "vectored read of " + file + " asked for a buffer of " + length + " bytes");
      }
      count(length);
      return ByteBuffer.allocate(length);
    }

    synchronized void count(long bytes) {
      ledger.acquire(bytes);
      counted += bytes;
    }

    synchronized void releaseAll() {
      ledger.release(counted);
      counted = 0;
    }
  }
}
