package dev.prefetch.orc.internal.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.testing.CountingLedger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stripe's needed bytes, read once and shared: each unit read once whatever the readers, on
 * remote storage all together in one vectored read (also issued ahead), counted in the loading
 * reader's ledger until the stripe is dropped; a failed load fails the reader that needs its bytes,
 * and is read again by the next one.
 */
class StripeBytesTest {

  /** One stripe at offset 3: a 1,000-byte index stream, then data streams of 20 MiB and 100 B. */
  private static final long OFFSET = 3;

  private static final int INDEX = 1000;
  private static final int BIG = 20 << 20;
  private static final int SMALL = 100;
  private static final byte[] FILE = new byte[(int) OFFSET + INDEX + BIG + SMALL];

  static {
    for (int i = 0; i < FILE.length; i++) {
      FILE[i] = (byte) (i * 31 + (i >>> 8));
    }
  }

  private static final DataFile FILE_NAME = DataFile.of(java.nio.file.Path.of("/data/stripes.orc"));

  /** The three streams as needed ranges, back to back. */
  private static final long[] STARTS = {OFFSET, OFFSET + INDEX, OFFSET + INDEX + BIG};

  private static final long[] ENDS = {OFFSET + INDEX, OFFSET + INDEX + BIG, FILE.length};

  private static StripeBytes local() {
    return new StripeBytes(FILE_NAME, STARTS, ENDS, false);
  }

  /** Bytes on remote storage: each stripe's units are read together, in one vectored read. */
  private static StripeBytes remote() {
    return new StripeBytes(FILE_NAME, STARTS, ENDS, true);
  }

  @Test
  void windowsHoldTheFileBytesAndEachUnitIsReadOnce() throws IOException {
    StripeBytes bytes = local();
    ArrayStream in = new ArrayStream();
    long start = OFFSET + INDEX + 5;
    assertSameBytes(
        bytes.window(start, start + BIG - 10, in.stream(), MemoryLedger.NONE),
        start,
        start + BIG - 10);
    assertSameBytes(
        bytes.window(OFFSET, FILE.length, in.stream(), MemoryLedger.NONE), OFFSET, FILE.length);
    // 1,000 + 20 MiB + 100 bytes in three units of at most 8 MiB.
    assertThat(in.reads.get()).isEqualTo(3);
    assertThat(in.bytes.get()).isEqualTo(INDEX + BIG + SMALL);
  }

  @Test
  void onLocalFilesRangesApartAreSpansOfTheirOwnAndTheGapIsNotRead() throws IOException {
    StripeBytes bytes =
        new StripeBytes(
            FILE_NAME,
            new long[] {OFFSET, FILE.length - SMALL},
            new long[] {OFFSET + 10, FILE.length},
            false);
    ArrayStream in = new ArrayStream();
    long small = FILE.length - SMALL;
    assertSameBytes(
        bytes.window(small, FILE.length, in.stream(), MemoryLedger.NONE), small, FILE.length);
    assertSameBytes(
        bytes.window(OFFSET, OFFSET + 10, in.stream(), MemoryLedger.NONE), OFFSET, OFFSET + 10);
    assertThat(in.bytes.get()).isEqualTo(SMALL + 10);
    assertThatThrownBy(() -> bytes.window(OFFSET, small, in.stream(), MemoryLedger.NONE))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFailedLoadIsLoadedAgainByTheNextReader() throws IOException {
    StripeBytes bytes = local();
    ArrayStream failing = new ArrayStream();
    failing.failures.set(1);
    assertThatThrownBy(
            () -> bytes.window(OFFSET, OFFSET + INDEX, failing.stream(), MemoryLedger.NONE))
        .isInstanceOf(IOException.class);
    ArrayStream working = new ArrayStream();
    assertSameBytes(
        bytes.window(OFFSET, OFFSET + INDEX, working.stream(), MemoryLedger.NONE),
        OFFSET,
        OFFSET + INDEX);
  }

  @Test
  @Timeout(30)
  void concurrentReadersShareTheLoadsOfAStripe() throws Exception {
    StripeBytes bytes = local();
    ArrayStream in = new ArrayStream();
    for (StripeBytes.Window window : windowsAtOnce(bytes, in, t -> OFFSET + INDEX, t -> BIG)) {
      assertSameBytes(window, OFFSET + INDEX, OFFSET + INDEX + BIG);
    }
    assertThat(in.bytes.get()).isLessThanOrEqualTo(INDEX + BIG + SMALL);
  }

  @Test
  @Timeout(30)
  void onRemoteStorageTheFirstReaderOfAStripeLoadsAllOfItInOneVectoredReadTheOthersWait()
      throws Exception {
    StripeBytes bytes = remote();
    ArrayStream in = new ArrayStream();
    // Half the readers want the index, half the last stream.
    IntToLongFunction offset = t -> t % 2 == 0 ? OFFSET : OFFSET + INDEX + BIG;
    List<StripeBytes.Window> windows =
        windowsAtOnce(bytes, in, offset, t -> t % 2 == 0 ? INDEX : SMALL);
    for (int t = 0; t < windows.size(); t++) {
      long from = offset.applyAsLong(t);
      assertSameBytes(windows.get(t), from, from + (t % 2 == 0 ? INDEX : SMALL));
    }
    assertSameBytes(
        bytes.window(OFFSET, FILE.length, in.stream(), MemoryLedger.NONE), OFFSET, FILE.length);
    assertThat(in.vectoredReads.get()).isEqualTo(1);
    // 20 MiB and 1,100 bytes, cut for 8 requests in flight: 8 units of about 2.5 MiB
    assertThat(in.reads.get()).isEqualTo(StripeBytes.VECTORED_PARTS);
    assertThat(in.bytes.get()).isEqualTo(INDEX + BIG + SMALL);
  }

  @Test
  void aFilesystemAllocatingItsVectoredBuffersOutOfOrderStillFillsEveryUnitWithItsBytes()
      throws IOException {
    StripeBytes bytes = remote();
    ArrayStream in = new ArrayStream();
    in.reverseVectored = true;
    assertSameBytes(
        bytes.window(OFFSET, FILE.length, in.stream(), MemoryLedger.NONE), OFFSET, FILE.length);
    assertThat(in.vectoredReads.get()).isEqualTo(1);
  }

  @Test
  void aFailedVectoredLoadNamesTheFileAndIsLoadedAgainByTheNextReader() throws IOException {
    StripeBytes bytes = remote();
    ArrayStream failing = new ArrayStream();
    failing.failures.set(1);
    assertThatThrownBy(
            () -> bytes.window(OFFSET, OFFSET + INDEX, failing.stream(), MemoryLedger.NONE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("stripes.orc")
        .hasRootCauseMessage("injected read failure");
    ArrayStream working = new ArrayStream();
    assertSameBytes(
        bytes.window(OFFSET, FILE.length, working.stream(), MemoryLedger.NONE),
        OFFSET,
        FILE.length);
    assertThat(working.vectoredReads.get()).isEqualTo(1);
  }

  @Test
  @Timeout(30)
  void aReadIssuedAheadServesTheWindowsAskedForLaterWithoutAnotherRead() throws Exception {
    StripeBytes bytes = remote();
    ArrayStream in = new ArrayStream();
    in.arrivals = new CountDownLatch(1);
    bytes.readAhead(in.stream(), MemoryLedger.NONE); // returns before the bytes arrive
    assertThat(in.vectoredReads.get()).isEqualTo(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<StripeBytes.Window> waiting =
          pool.submit(() -> bytes.window(OFFSET, FILE.length, in.stream(), MemoryLedger.NONE));
      Thread.sleep(50);
      assertThat(waiting).isNotDone();
      in.arrivals.countDown();
      assertSameBytes(waiting.get(), OFFSET, FILE.length);
    } finally {
      pool.shutdownNow();
    }
    assertThat(in.vectoredReads.get()).isEqualTo(1);
    assertThat(in.bytes.get()).isEqualTo(INDEX + BIG + SMALL);
  }

  /**
   * The reader that needs bytes of a failed read ahead raises its failure (so the failure is that
   * of the range the bytes are for, even when a read that succeeds again would hide it); the units
   * are given back, and the next reader reads them again.
   */
  @Test
  void aFailedReadAheadFailsTheReaderThatNeedsTheBytesAndTheNextReaderReadsThemAgain()
      throws IOException {
    StripeBytes bytes = remote();
    ArrayStream failing = new ArrayStream();
    failing.failures.set(1);
    bytes.readAhead(failing.stream(), MemoryLedger.NONE);
    ArrayStream working = new ArrayStream();
    assertThatThrownBy(
            () -> bytes.window(OFFSET, OFFSET + INDEX, working.stream(), MemoryLedger.NONE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("stripes.orc")
        .hasRootCauseMessage("injected read failure");
    assertThat(working.vectoredReads.get()).isZero();
    assertSameBytes(
        bytes.window(OFFSET, FILE.length, working.stream(), MemoryLedger.NONE),
        OFFSET,
        FILE.length);
    assertThat(working.vectoredReads.get()).isEqualTo(1);
  }

  @Test
  void aSpansArrayCountsInItsLoadersLedgerFromItsAllocationUntilTheStripeIsDropped()
      throws IOException {
    StripeBytes bytes = local();
    ArrayStream in = new ArrayStream();
    CountingLedger ledger = new CountingLedger();
    bytes.window(OFFSET, OFFSET + INDEX, in.stream(), ledger);
    // The three streams lie back to back: one span, one array of all their bytes.
    assertThat(ledger.held()).isEqualTo(INDEX + BIG + SMALL);
    bytes.window(OFFSET + INDEX, OFFSET + INDEX + BIG, in.stream(), ledger);
    assertThat(ledger.held()).as("an array is counted once").isEqualTo(INDEX + BIG + SMALL);
    bytes.release();
    assertThat(ledger.held()).isZero();
    // A load after the stripe was dropped counts nowhere.
    StripeBytes dropped = local();
    dropped.release();
    dropped.window(OFFSET, OFFSET + INDEX, in.stream(), ledger);
    assertThat(ledger.held()).isZero();
  }

  /** Checks that the window holds the file's bytes {@code [from, to)}. */
  private static void assertSameBytes(StripeBytes.Window window, long from, long to) {
    int length = (int) (to - from);
    byte[] actual = Arrays.copyOfRange(window.array(), window.offset(), window.offset() + length);
    assertThat(actual).isEqualTo(Arrays.copyOfRange(FILE, (int) from, (int) to));
  }

  /** {@link #FILE} as a stream that counts positioned reads and can fail the next ones. */
  private static final class ArrayStream extends FSInputStream {
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger bytes = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger vectoredReads = new AtomicInteger();

    /** Whether vectored reads allocate their buffers last range first. */
    volatile boolean reverseVectored;

    /** When set, vectored reads complete only once it is counted down (bytes arriving later). */
    volatile CountDownLatch arrivals;

    private long position;

    /** Each range a positioned read (a failure fails its range's future), in file order. */
    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate) {
      vectoredReads.incrementAndGet();
      List<FileRange> order = new ArrayList<>(ranges);
      order.sort(java.util.Comparator.comparingLong(FileRange::getOffset));
      if (reverseVectored) {
        java.util.Collections.reverse(order);
      }
      CountDownLatch later = arrivals;
      for (FileRange range : order) {
        ByteBuffer buffer = allocate.apply(range.getLength());
        CompletableFuture<ByteBuffer> data;
        try {
          byte[] bytes = new byte[range.getLength()];
          readFully(range.getOffset(), bytes, 0, bytes.length);
          buffer.put(bytes).flip();
          data = CompletableFuture.completedFuture(buffer);
        } catch (IOException e) {
          data = CompletableFuture.failedFuture(e);
        }
        if (later != null) {
          CompletableFuture<ByteBuffer> read = data;
          data =
              CompletableFuture.supplyAsync(
                  () -> {
                    try {
                      later.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                    return read.join();
                  });
        }
        range.setData(data);
      }
    }

    FSDataInputStream stream() {
      return new FSDataInputStream(this);
    }

    @Override
    public void readFully(long pos, byte[] buffer, int offset, int length) throws IOException {
      if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new IOException("injected read failure");
      }
      System.arraycopy(FILE, (int) pos, buffer, offset, length);
      reads.incrementAndGet();
      bytes.addAndGet(length);
    }

    @Override
    public void seek(long pos) {
      position = pos;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() {
      return position < FILE.length ? FILE[(int) position++] & 0xFF : -1;
    }
  }

  /**
   * Four readers asking for windows at once, reader {@code t} at {@code offset(t)} for {@code
   * length(t)} bytes; their windows in reader order.
   */
  private static List<StripeBytes.Window> windowsAtOnce(
      StripeBytes bytes, ArrayStream in, IntToLongFunction offset, IntUnaryOperator length)
      throws Exception {
    int threads = 4;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<StripeBytes.Window>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long at = offset.applyAsLong(t);
        int size = length.applyAsInt(t);
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  return bytes.window(at, at + size, in.stream(), MemoryLedger.NONE);
                }));
      }
      go.countDown();
      List<StripeBytes.Window> windows = new ArrayList<>();
      for (Future<StripeBytes.Window> future : futures) {
        windows.add(future.get());
      }
      return windows;
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }
}
