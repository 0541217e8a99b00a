package dev.prefetch.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.RangeLocator;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.testing.ReaderThreads;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * An in-memory format that drives the runtime in tests: a "file" named {@code NAME.synth} is a
 * {@link Spec} registered under NAME, with ranges of given row counts, optional per-batch delays,
 * an optional failure, and a payload column that sets each batch's byte size. Its rows carry their
 * own file row index, so order and completeness can be checked value by value.
 */
public final class SyntheticFormat implements FileFormat {

  static final Schema SCHEMA =
      new Schema(
          List.of(Field.of("row", DataType.int64()), Field.of("payload", DataType.binary())));

  private static final Map<String, Spec> SPECS = new ConcurrentHashMap<>();

  /**
   * A random sleep before each batch.
   *
   * @param maxMicros upper bound of the sleep (0: none)
   * @param seed seed of the sleeps
   */
  public record Delays(int maxMicros, long seed) {
    static final Delays NONE = new Delays(0, 0);
  }

  /**
   * One batch of one range.
   *
   * @param range the range's index (-1: no batch)
   * @param batch the batch's index within that range
   */
  public record BatchAt(int range, int batch) {
    static final BatchAt NONE = new BatchAt(-1, 0);

    boolean is(int rangeIndex, int batchIndex) {
      return range == rangeIndex && batch == batchIndex;
    }
  }

  /**
   * A synthetic file.
   *
   * @param rangeRows rows of each range
   * @param bytesPerRange estimated compressed bytes reported for each range
   * @param payloadBytesPerRow payload bytes per row (sets the batch size in bytes)
   * @param delays the random sleep before each batch
   * @param fail the batch that throws ({@link BatchAt#NONE}: none)
   * @param block the batch that blocks on {@code gate} before it is produced ({@link BatchAt#NONE}:
   *     none)
   * @param gate the latch a blocked batch waits for
   * @param startGate a latch every range's first batch waits for (null: none)
   */
  public record Spec(
      List<Integer> rangeRows,
      long bytesPerRange,
      int payloadBytesPerRow,
      Delays delays,
      BatchAt fail,
      BatchAt block,
      CountDownLatch gate,
      CountDownLatch startGate) {

    public static Spec of(List<Integer> rangeRows) {
      return new Spec(rangeRows, 1 << 20, 0, Delays.NONE, BatchAt.NONE, BatchAt.NONE, null, null);
    }

    public Spec withDelays(int maxMicros, long seed) {
      return new Spec(
          rangeRows,
          bytesPerRange,
          payloadBytesPerRow,
          new Delays(maxMicros, seed),
          fail,
          block,
          gate,
          startGate);
    }

    public Spec withPayload(int bytesPerRow) {
      return new Spec(rangeRows, bytesPerRange, bytesPerRow, delays, fail, block, gate, startGate);
    }

    public Spec withBytesPerRange(long bytes) {
      return new Spec(rangeRows, bytes, payloadBytesPerRow, delays, fail, block, gate, startGate);
    }

    public Spec failingAt(int range, int batch) {
      return new Spec(
          rangeRows,
          bytesPerRange,
          payloadBytesPerRow,
          delays,
          new BatchAt(range, batch),
          block,
          gate,
          startGate);
    }

    public Spec blockingAt(int range, CountDownLatch latch) {
      return blockingAt(range, 0, latch);
    }

    public Spec blockingAt(int range, int batch, CountDownLatch latch) {
      return new Spec(
          rangeRows,
          bytesPerRange,
          payloadBytesPerRow,
          delays,
          fail,
          new BatchAt(range, batch),
          latch,
          startGate);
    }

    public Spec withStartGate(CountDownLatch latch) {
      return new Spec(
          rangeRows, bytesPerRange, payloadBytesPerRow, delays, fail, block, gate, latch);
    }

    long totalRows() {
      long total = 0;
      for (int rows : rangeRows) {
        total += rows;
      }
      return total;
    }
  }

  /** {@code count} ranges of {@code rows} rows each, in a list the caller may change. */
  static List<Integer> ranges(int count, int rows) {
    return new ArrayList<>(Collections.nCopies(count, rows));
  }

  /** Asserts that no producer thread, range reader or plan outlived the reads that ended. */
  static void assertNothingLeaks() {
    ReaderThreads.assertNoneAlive();
    assertThat(OPEN_READERS.get()).as("range readers left open").isZero();
    assertThat(OPEN_PLANS.get()).as("plans left open").isZero();
  }

  /** Bytes each reader of a file holds as its buffers, reported to its ledger (0: none). */
  private static final Map<String, Long> READER_BUFFERS = new ConcurrentHashMap<>();

  /**
   * What the synthetic files hold in memory now: batches decoded and not yet {@link #taken}, and
   * the readers' buffers; and its peak. Tests that measure a read reset both first.
   */
  static final AtomicLong LIVE_BYTES = new AtomicLong();

  static final AtomicLong PEAK_LIVE_BYTES = new AtomicLong();

  /** Every reader of file {@code name} holds {@code bytes} of buffers while open. */
  static void readerBuffers(String name, long bytes) {
    READER_BUFFERS.put(name, bytes);
  }

  /** The consumer took {@code batch}: it no longer counts as held by the read. */
  static void taken(RecordBatch batch) {
    LIVE_BYTES.addAndGet(-batch.sizeInBytes());
  }

  private static void live(long delta) {
    long now = LIVE_BYTES.addAndGet(delta);
    PEAK_LIVE_BYTES.accumulateAndGet(now, Math::max);
  }

  /** Counts readers opened and closed, so tests can check every handle is released. */
  static final AtomicInteger OPEN_READERS = new AtomicInteger();

  /** Counts plans made and closed, so tests can check every plan is released. */
  static final AtomicInteger OPEN_PLANS = new AtomicInteger();

  /** Test code run inside the format at a given step of one file; it may block or throw. */
  interface Hook {
    void run() throws IOException;
  }

  /** A hook that throws a new {@code thrown.get()} each time it runs, whatever its type. */
  static Hook throwing(Supplier<? extends Throwable> thrown) {
    return () -> {
      throw sneaky(thrown.get());
    };
  }

  /** Throws any throwable through a hook that declares IOException. */
  @SuppressWarnings("unchecked")
  static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }

  private static final Map<String, Hook> PLAN_HOOKS = new ConcurrentHashMap<>();
  private static final Map<String, Hook> OPEN_HOOKS = new ConcurrentHashMap<>();
  private static final Map<String, Hook> CLOSE_HOOKS = new ConcurrentHashMap<>();
  private static final Map<String, Hook> NEXT_HOOKS = new ConcurrentHashMap<>();
  private static final Map<String, Hook> ABORT_HOOKS = new ConcurrentHashMap<>();

  /** Runs {@code hook} at the start of every plan() of file {@code name}. */
  static void onPlan(String name, Hook hook) {
    PLAN_HOOKS.put(name, hook);
  }

  /** Runs {@code hook} at the start of every openReader() of file {@code name}. */
  static void onOpenReader(String name, Hook hook) {
    OPEN_HOOKS.put(name, hook);
  }

  /** Runs {@code hook} when a reader of file {@code name} closes (its handle already released). */
  static void onReaderClose(String name, Hook hook) {
    CLOSE_HOOKS.put(name, hook);
  }

  /** Runs {@code hook} at the start of every next() of a reader of file {@code name}. */
  static void onNext(String name, Hook hook) {
    NEXT_HOOKS.put(name, hook);
  }

  /** Runs {@code hook} when the runtime aborts a reader of file {@code name} (from its thread). */
  static void onAbort(String name, Hook hook) {
    ABORT_HOOKS.put(name, hook);
  }

  private static void runHook(Map<String, Hook> hooks, String name) throws IOException {
    Hook hook = hooks.get(name);
    if (hook != null) {
      hook.run();
    }
  }

  /** Registers {@code spec} (and no hooks) and returns the file that reads it. */
  public static DataFile register(String name, Spec spec) {
    SPECS.put(name, spec);
    PLAN_HOOKS.remove(name);
    OPEN_HOOKS.remove(name);
    CLOSE_HOOKS.remove(name);
    NEXT_HOOKS.remove(name);
    ABORT_HOOKS.remove(name);
    READER_BUFFERS.remove(name);
    return DataFile.of(new org.apache.hadoop.fs.Path("file:/synthetic/" + name + ".synth"));
  }

  @Override
  public String name() {
    return "synthetic";
  }

  @Override
  public boolean matchesFileName(String fileName) {
    return fileName.endsWith(".synth");
  }

  @Override
  public boolean matchesMagic(byte[] head, int length) {
    return false;
  }

  @Override
  public FilePlan plan(
      DataFile file,
      ReadOptions options,
      RangeBudget budget,
      ReadContext context,
      ScanCounters counters)
      throws IOException {
    String name = file.path().getName().replace(".synth", "");
    Spec spec = SPECS.get(name);
    if (spec == null) {
      throw new FileNotFoundException("no synthetic file " + name);
    }
    runHook(PLAN_HOOKS, name);
    counters.increment(ScanCounters.FOOTER_READS);
    List<ReadRange> ranges = new ArrayList<>();
    long row = 0;
    for (int i = 0; i < spec.rangeRows().size(); i++) {
      int rows = spec.rangeRows().get(i);
      ranges.add(
          new ReadRange(
              i, row, rows, spec.bytesPerRange(), RangeLocator.named("synthetic range " + i)));
      row += rows;
    }
    OPEN_PLANS.incrementAndGet();
    return new Plan(
        name,
        file,
        spec,
        List.copyOf(ranges),
        options.batchSize(),
        counters,
        new java.util.concurrent.atomic.AtomicBoolean());
  }

  private record Plan(
      String name,
      DataFile file,
      Spec spec,
      List<ReadRange> ranges,
      int batchSize,
      ScanCounters counters,
      java.util.concurrent.atomic.AtomicBoolean closed)
      implements FilePlan {

    @Override
    public String formatName() {
      return "synthetic";
    }

    @Override
    public Schema schema() {
      return SCHEMA;
    }

    @Override
    public RangeReader openReader(ReaderContext context) throws IOException {
      MemoryLedger ledger = context.ledger();
      runHook(OPEN_HOOKS, name);
      OPEN_READERS.incrementAndGet();
      long buffers = READER_BUFFERS.getOrDefault(name, 0L);
      live(buffers);
      ledger.acquire(buffers);
      return new Reader(this, ledger, buffers);
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        OPEN_PLANS.decrementAndGet();
      }
    }
  }

  private static final class Reader implements RangeReader {
    private final Plan plan;
    private final Random random;
    private ReadRange range;
    private long next;
    private int batchInRange;
    private boolean closed;
    private final MemoryLedger ledger;
    private final long buffers;

    Reader(Plan plan, MemoryLedger ledger, long buffers) {
      this.plan = plan;
      this.ledger = ledger;
      this.buffers = buffers;
      this.random = new Random(plan.spec().delays().seed() ^ System.identityHashCode(this));
    }

    @Override
    public void start(ReadRange range) {
      this.range = range;
      this.next = range.firstRow();
      this.batchInRange = 0;
    }

    private static void await(CountDownLatch latch) throws IOException {
      try {
        latch.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while blocked");
      }
    }

    @Override
    public RecordBatch next() throws IOException {
      if (closed) {
        throw new IllegalStateException("reader closed");
      }
      if (next >= range.endRow()) {
        return null;
      }
      runHook(NEXT_HOOKS, plan.name());
      Spec spec = plan.spec();
      if (spec.startGate() != null && batchInRange == 0) {
        await(spec.startGate());
      }
      if (spec.block().is(range.index(), batchInRange)) {
        await(spec.gate());
      }
      if (spec.fail().is(range.index(), batchInRange)) {
        throw new IOException("injected failure in range " + range.index());
      }
      if (spec.delays().maxMicros() > 0) {
        // parkNanos, not sleep: Thread.sleep rounds sub-millisecond delays up to 1 ms.
        java.util.concurrent.locks.LockSupport.parkNanos(
            1000L * random.nextInt(spec.delays().maxMicros() + 1));
        if (Thread.currentThread().isInterrupted()) {
          throw new java.io.InterruptedIOException("interrupted in a delay");
        }
      }
      int rows = (int) Math.min(plan.batchSize(), range.endRow() - next);
      long[] values = new long[rows];
      for (int i = 0; i < rows; i++) {
        values[i] = next + i;
      }
      int payload = spec.payloadBytesPerRow();
      byte[] data = new byte[rows * payload];
      int[] offsets = new int[rows + 1];
      for (int i = 0; i <= rows; i++) {
        offsets[i] = i * payload;
      }
      RecordBatch batch =
          new RecordBatch(
              plan.file(),
              next,
              rows,
              SCHEMA,
              List.of(
                  new LongVector(DataType.int64(), rows, values, null),
                  new BinaryVector(DataType.binary(), rows, data, offsets, null)));
      live(batch.sizeInBytes());
      plan.counters().add(ScanCounters.BYTES_READ, rows * 8L);
      next += rows;
      batchInRange++;
      return batch;
    }

    @Override
    public void abort() {
      try {
        runHook(ABORT_HOOKS, plan.name());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        OPEN_READERS.decrementAndGet();
        live(-buffers);
        ledger.release(buffers);
        runHook(CLOSE_HOOKS, plan.name());
      }
    }
  }

  /** Every registered spec's expected rows in order, for readers over several files. */
  static long expectedRows(List<Spec> specs) {
    long total = 0;
    for (Spec spec : specs) {
      total += spec.totalRows();
    }
    return total;
  }
}
