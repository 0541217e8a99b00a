package dev.prefetch.orc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.testing.CountingLedger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;
import org.apache.orc.impl.ReaderImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class StripeBuffersTest {

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

  private static final StripeInformation STRIPE =
      new ReaderImpl.StripeInformationImpl(
          OrcProto.StripeInformation.newBuilder()
              .setOffset(OFFSET)
              .setIndexLength(INDEX)
              .setDataLength(BIG + SMALL)
              .setFooterLength(0)
              .setNumberOfRows(10)
              .build(),
          0,
          0,
          null);
  private static final OrcProto.StripeFooter FOOTER =
      OrcProto.StripeFooter.newBuilder()
          .addStreams(stream(OrcProto.Stream.Kind.ROW_INDEX, 1, INDEX))
          .addStreams(stream(OrcProto.Stream.Kind.DATA, 1, BIG))
          .addStreams(stream(OrcProto.Stream.Kind.DATA, 2, SMALL))
          .build();

  private static OrcProto.Stream stream(OrcProto.Stream.Kind kind, int column, long length) {
    return OrcProto.Stream.newBuilder().setKind(kind).setColumn(column).setLength(length).build();
  }

  private static final DataFile FILE_NAME = DataFile.of(java.nio.file.Path.of("/data/stripes.orc"));

  private static StripeBuffers buffers(boolean... include) {
    return new StripeBuffers(FILE_NAME, List.of(STRIPE), new int[] {2}, include, false);
  }

  /** Buffers over remote storage: each stripe's units are read together, in one vectored read. */
  private static StripeBuffers remote(boolean... include) {
    return new StripeBuffers(FILE_NAME, List.of(STRIPE), new int[] {2}, include, true);
  }

  @Test
  void slicesHoldTheFileBytesAndEachUnitIsReadOnce() throws IOException {
    StripeBuffers buffers = buffers(true, true, true);
    ArrayStream in = new ArrayStream();
    buffers.footer(0, stripe -> FOOTER);
    long start = OFFSET + INDEX + 5;
    ByteBuffer slice = buffers.slice(0, start, BIG - 10, in.stream(), MemoryLedger.NONE);
    assertSameBytes(slice, start);
    assertSameBytes(
        buffers.slice(0, OFFSET, INDEX + BIG + SMALL, in.stream(), MemoryLedger.NONE), OFFSET);
    // 1,000 + 20 MiB + 100 bytes in three units of at most 8 MiB.
    assertThat(in.reads.get()).isEqualTo(3);
    assertThat(in.bytes.get()).isEqualTo(INDEX + BIG + SMALL);
  }

  @Test
  void streamsOfColumnsNotReadAreLeftToTheFile() throws IOException {
    StripeBuffers buffers = buffers(true, false, true);
    ArrayStream in = new ArrayStream();
    buffers.footer(0, stripe -> FOOTER);
    assertThat(buffers.slice(0, OFFSET + INDEX, 10, in.stream(), MemoryLedger.NONE)).isNull();
    long small = OFFSET + INDEX + BIG;
    assertSameBytes(buffers.slice(0, small, SMALL, in.stream(), MemoryLedger.NONE), small);
    assertThat(in.bytes.get()).isEqualTo(SMALL);
  }

  @Test
  void aFailedLoadIsLoadedAgainByTheNextReader() throws IOException {
    StripeBuffers buffers = buffers(true, true, true);
    buffers.footer(0, stripe -> FOOTER);
    ArrayStream failing = new ArrayStream();
    failing.failures.set(1);
    assertThatThrownBy(() -> buffers.slice(0, OFFSET, INDEX, failing.stream(), MemoryLedger.NONE))
        .isInstanceOf(IOException.class);
    ArrayStream working = new ArrayStream();
    assertSameBytes(buffers.slice(0, OFFSET, INDEX, working.stream(), MemoryLedger.NONE), OFFSET);
  }

  @Test
  @Timeout(30)
  void concurrentReadersShareTheLoadsOfAStripe() throws Exception {
    StripeBuffers buffers = buffers(true, true, true);
    buffers.footer(0, stripe -> FOOTER);
    ArrayStream in = new ArrayStream();
    for (ByteBuffer slice : slicesAtOnce(buffers, in, t -> OFFSET + INDEX, t -> BIG)) {
      assertSameBytes(slice, OFFSET + INDEX);
    }
    assertThat(in.bytes.get()).isLessThanOrEqualTo(INDEX + BIG + SMALL);
  }

  @Test
  @Timeout(30)
  void onRemoteStorageTheFirstReaderOfAStripeLoadsAllOfItInOneVectoredReadTheOthersWait()
      throws Exception {
    StripeBuffers buffers = remote(true, true, true);
    buffers.footer(0, stripe -> FOOTER);
    ArrayStream in = new ArrayStream();
    // Half the readers want the index, half the last stream.
    IntToLongFunction offset = t -> t % 2 == 0 ? OFFSET : OFFSET + INDEX + BIG;
    List<ByteBuffer> slices = slicesAtOnce(buffers, in, offset, t -> t % 2 == 0 ? INDEX : SMALL);
    for (int t = 0; t < slices.size(); t++) {
      assertSameBytes(slices.get(t), offset.applyAsLong(t));
    }
    assertSameBytes(
        buffers.slice(0, OFFSET, INDEX + BIG + SMALL, in.stream(), MemoryLedger.NONE), OFFSET);
    assertThat(in.vectoredReads.get()).isEqualTo(1);
    // 20 MiB and 1,100 bytes, cut for 8 requests in flight: 8 units of about 2.5 MiB
    assertThat(in.reads.get()).isEqualTo(StripeBuffers.VECTORED_PARTS);
    assertThat(in.bytes.get()).isEqualTo(INDEX + BIG + SMALL);
  }

  @Test
  void aFilesystemAllocatingItsVectoredBuffersOutOfOrderStillFillsEveryUnitWithItsBytes()
      throws IOException {
    StripeBuffers buffers = remote(true, true, true);
    buffers.footer(0, stripe -> FOOTER);
    ArrayStream in = new ArrayStream();
    in.reverseVectored = true;
    assertSameBytes(
        buffers.slice(0, OFFSET, INDEX + BIG + SMALL, in.stream(), MemoryLedger.NONE), OFFSET);
    assertThat(in.vectoredReads.get()).isEqualTo(1);
  }

  @Test
  void aFailedVectoredLoadNamesTheFileAndIsLoadedAgainByTheNextReader() throws IOException {
    StripeBuffers buffers = remote(true, true, true);
    buffers.footer(0, stripe -> FOOTER);
    ArrayStream failing = new ArrayStream();
    failing.failures.set(1);
    assertThatThrownBy(() -> buffers.slice(0, OFFSET, INDEX, failing.stream(), MemoryLedger.NONE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("stripes.orc")
        .hasRootCauseMessage("injected read failure");
    ArrayStream working = new ArrayStream();
    assertSameBytes(
        buffers.slice(0, OFFSET, INDEX + BIG + SMALL, working.stream(), MemoryLedger.NONE), OFFSET);
    assertThat(working.vectoredReads.get()).isEqualTo(1);
  }

  @Test
  void theLastRangeOfAStripeDropsItsBytes() throws IOException {
    StripeBuffers buffers = buffers(true, true, true);
    ArrayStream in = new ArrayStream();
    buffers.footer(0, stripe -> FOOTER);
    buffers.slice(0, OFFSET, INDEX, in.stream(), MemoryLedger.NONE);
    buffers.rangeDone(0);
    buffers.slice(0, OFFSET, INDEX, in.stream(), MemoryLedger.NONE);
    assertThat(in.reads.get()).isEqualTo(1);
    buffers.rangeDone(0);
    // Dropped: a reader coming back (never in a plan's walk) reads it again.
    buffers.footer(0, stripe -> FOOTER);
    buffers.slice(0, OFFSET, INDEX, in.stream(), MemoryLedger.NONE);
    assertThat(in.reads.get()).isEqualTo(2);
  }

  @Test
  void aSpansArrayCountsInItsLoadersLedgerFromItsAllocationUntilTheStripeIsDropped()
      throws IOException {
    StripeBuffers buffers = buffers(true, true, true);
    ArrayStream in = new ArrayStream();
    CountingLedger ledger = new CountingLedger();
    buffers.footer(0, stripe -> FOOTER);
    buffers.slice(0, OFFSET, INDEX, in.stream(), ledger);
    // The three streams lie back to back: one span, one array of all their bytes.
    assertThat(ledger.held()).isEqualTo(INDEX + BIG + SMALL);
    buffers.slice(0, OFFSET + INDEX, BIG, in.stream(), ledger);
    assertThat(ledger.held()).as("an array is counted once").isEqualTo(INDEX + BIG + SMALL);
    buffers.rangeDone(0);
    assertThat(ledger.held()).as("one range of the stripe left").isEqualTo(INDEX + BIG + SMALL);
    buffers.rangeDone(0);
    assertThat(ledger.held()).isZero();
  }

  @Test
  void clearingThePlanReleasesWhatItsStripesCounted() throws IOException {
    StripeBuffers buffers = buffers(true, true, true);
    CountingLedger ledger = new CountingLedger();
    buffers.footer(0, stripe -> FOOTER);
    buffers.slice(0, OFFSET, INDEX, new ArrayStream().stream(), ledger);
    assertThat(ledger.held()).isPositive();
    buffers.clear();
    assertThat(ledger.held()).isZero();
  }

  private static void assertSameBytes(ByteBuffer slice, long fileOffset) {
    byte[] actual = new byte[slice.remaining()];
    slice.duplicate().get(actual);
    byte[] expected = new byte[actual.length];
    System.arraycopy(FILE, (int) fileOffset, expected, 0, expected.length);
    assertThat(actual).isEqualTo(expected);
  }

  /** {@link #FILE} as a stream that counts positioned reads and can fail the next ones. */
  private static final class ArrayStream extends FSInputStream {
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger bytes = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger vectoredReads = new AtomicInteger();

    /** Whether vectored reads allocate their buffers last range first. */
    volatile boolean reverseVectored;

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
      for (FileRange range : order) {
        ByteBuffer buffer = allocate.apply(range.getLength());
        try {
          byte[] bytes = new byte[range.getLength()];
          readFully(range.getOffset(), bytes, 0, bytes.length);
          buffer.put(bytes).flip();
          range.setData(CompletableFuture.completedFuture(buffer));
        } catch (IOException e) {
          range.setData(CompletableFuture.failedFuture(e));
        }
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
   * Four readers slicing stripe 0 at once, reader {@code t} at {@code offset(t)} for {@code
   * length(t)} bytes; their slices in reader order.
   */
  private static List<ByteBuffer> slicesAtOnce(
      StripeBuffers buffers, ArrayStream in, IntToLongFunction offset, IntUnaryOperator length)
      throws Exception {
    int threads = 4;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<ByteBuffer>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long at = offset.applyAsLong(t);
        int bytes = length.applyAsInt(t);
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  return buffers.slice(0, at, bytes, in.stream(), MemoryLedger.NONE);
                }));
      }
      go.countDown();
      List<ByteBuffer> slices = new ArrayList<>();
      for (Future<ByteBuffer> future : futures) {
        slices.add(future.get());
      }
      return slices;
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }
}
