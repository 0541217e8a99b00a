package dev.prefetch.runtime;

import dev.prefetch.ReadException;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.ReadRange;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The meeting point of P producers and one consumer: range assignment, the per-producer bounded
 * queues, the memory budget, failure and close.
 *
 * <h2>Threads and ownership</h2>
 * Producer {@code p} claims tasks (a file's read range, numbered by a global sequence {@code seq}
 * in file-then-row order) and appends their batches to its own queue {@code queues[p]}; the
 * consumer removes them. Every field below is guarded by {@link #lock}: one lock keeps the
 * protocol simple to reason about, and it is taken once per batch (thousands of rows), so it is
 * never contended enough to matter.
 *
 * <h2>Protocol</h2>
 * <ul>
 *   <li><b>Dynamic assignment.</b> An idle producer claims the next unclaimed task
 *       ({@link #claim}), so a slow range delays only its own producer. {@code owner[seq]} records
 *       who claimed it. A producer works on its claims in increasing order, so each queue holds
 *       tasks in increasing order.
 *   <li><b>Ordered merge.</b> The consumer reads task {@code wantedSeq} from its owner's queue head
 *       until that task's end marker, then moves to {@code wantedSeq + 1}: the task that starts
 *       where the previous one ended. Batches therefore come out exactly as a single reader makes
 *       them.
 *   <li><b>Backpressure.</b> A batch enters a queue only while the queue holds fewer than
 *       {@code queueCapacity} batches and the counted bytes of all queues stay within
 *       {@code maxBufferedBytes}; otherwise its producer waits. End markers are not counted.
 *   <li><b>Hand-off.</b> One case would deadlock a strict budget: the consumer waits for task
 *       {@code wantedSeq} while later tasks' batches fill the budget. So a batch of
 *       {@code wantedSeq} whose owner's queue is empty is always admitted, uncounted: the consumer
 *       is about to take it, as if handed over directly. Counted bytes thus never exceed the
 *       budget, and progress is guaranteed.
 * </ul>
 *
 * <h2>End</h2>
 * {@link #take} returns null once every task is consumed and every producer that started has
 * closed its last reader ({@code active == 0}): a reader that fails to close after the last batch
 * still fails the read, as on the single path, instead of racing the consumer to the end. A
 * producer that starts later claims nothing and opens nothing, so it cannot fail.
 *
 * <h2>Who blocks, and how close and failures win</h2>
 * Producers block only in {@link #put} (queue full or budget spent), each on its own
 * {@code producerCanGo[p]}; the consumer blocks only in {@link #take} on {@code consumerCanGo}.
 * Neither spins. Every state change that could unblock a waiter signals exactly that waiter: a
 * take signals the producer whose queue it shortened, and the producers waiting for budget when it
 * freed counted bytes; moving to the next task signals that task's owner (it may hand off);
 * failure and close signal everyone.
 *
 * <h2>Waking the consumer in bursts</h2>
 * The consumer usually works faster than a producer, so it would sleep after every batch and be
 * woken for the next one: a futex call and a cross-core wake-up per batch, which on a virtual
 * machine cost as much CPU as a tenth of the decoding. So a waiting consumer is woken only when
 * the producer it waits on has {@code wakeBatches} batches queued, when that producer ends the
 * task, hands a batch off or is about to wait itself, or on failure and close. A batch that
 * arrives alone (its producer then busy with I/O, say) is not forgotten: the consumer waits at
 * most {@link #LINGER_NANOS} at a time, then takes whatever is queued. {@link #close()} and the first {@link #fail} set a
 * flag and signal everyone: waiting producers return false from {@code put} and stop claiming;
 * the consumer throws. The first failure is kept and raised by every later {@code take}.
 *
 * <h2>Invariant</h2>
 * For every queue, the entries are in increasing {@code seq}, and every entry's {@code seq} is
 * {@code >= wantedSeq}; so the head of {@code queues[owner[wantedSeq]]}, if any, belongs to
 * {@code wantedSeq}. A change must keep it, or the merge reorders rows.
 */
final class Exchange {

  /** A claimed task: read {@code range} of file {@code fileIndex} (planned as {@code plan}). */
  record Task(int seq, int fileIndex, FilePlan plan, ReadRange range) {
  }

  /** A queue entry: a batch, or the end of task {@code seq} when {@code batch} is null. */
  record Entry(int seq, RecordBatch batch, long countedBytes) {
  }

  /** Batches a waiting consumer lets its producer queue before it is woken (see the class doc). */
  static final int WAKE_BATCHES = 4;
  /** The longest a waiting consumer sleeps before it looks for queued batches itself. */
  static final long LINGER_NANOS = 10_000_000L;

  private final FileSequence files;
  private final int queueCapacity;
  /** {@link #WAKE_BATCHES}, or fewer when a queue holds fewer, so that a full queue wakes. */
  private final int wakeBatches;
  private final long maxBufferedBytes;
  private final ReaderStats stats;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition consumerCanGo = lock.newCondition();
  /** One condition per producer, so a take wakes only the producer it made room for. */
  private final Condition[] producerCanGo;

  // All guarded by lock.
  private final ArrayDeque<Entry>[] queues;
  private final int[] queuedBatches;
  /** Producers waiting because the memory budget (not their queue) is full. */
  private final boolean[] waitingForBudget;
  private int[] owner = new int[64];
  private int claimed;
  private int cursorFile;
  private int cursorRange;
  private boolean allClaimed;
  /** Producers that started and have not yet closed their last reader. */
  private int active;
  private int wantedSeq;
  private long bufferedBytes;
  /** The consumer is in {@code consumerCanGo.await}: producers decide whether to wake it. */
  private boolean consumerWaiting;
  private ReadException failure;
  private boolean closed;

  @SuppressWarnings("unchecked")
  Exchange(FileSequence files, int producers, int queueCapacity, long maxBufferedBytes,
      ReaderStats stats) {
    this.files = files;
    this.queueCapacity = queueCapacity;
    this.wakeBatches = Math.min(WAKE_BATCHES, queueCapacity);
    this.maxBufferedBytes = maxBufferedBytes;
    this.stats = stats;
    this.queues = new ArrayDeque[producers];
    for (int i = 0; i < producers; i++) {
      queues[i] = new ArrayDeque<>();
    }
    this.queuedBatches = new int[producers];
    this.waitingForBudget = new boolean[producers];
    this.producerCanGo = new Condition[producers];
    for (int i = 0; i < producers; i++) {
      producerCanGo[i] = lock.newCondition();
    }
  }

  /**
   * Claims the next task for {@code producer}, planning the next file (outside the lock) when the
   * claims reach it. Returns null when every task is claimed or the exchange is stopped.
   */
  Task claim(int producer) throws IOException {
    while (true) {
      int fileToPlan;
      lock.lock();
      try {
        if (stopped()) {
          return null;
        }
        if (cursorFile >= files.size()) {
          allClaimed = true;
          consumerCanGo.signal();
          return null;
        }
        FilePlan plan = files.plannedOrNull(cursorFile);
        if (plan != null) {
          if (cursorRange >= plan.ranges().size()) {
            cursorFile++;
            cursorRange = 0;
            continue;
          }
          int seq = claimed++;
          if (seq == owner.length) {
            owner = Arrays.copyOf(owner, owner.length * 2);
          }
          owner[seq] = producer;
          return new Task(seq, cursorFile, plan, plan.ranges().get(cursorRange++));
        }
        fileToPlan = cursorFile;
      } finally {
        lock.unlock();
      }
      // Metadata I/O happens outside the lock; concurrent claimers wait in FileSequence.
      files.planForRead(fileToPlan);
    }
  }

  /**
   * Appends a batch of task {@code seq} to {@code producer}'s queue, waiting for space.
   *
   * @return false when the exchange stopped (closed or failed); the producer must then quit
   */
  boolean put(int producer, int seq, RecordBatch batch) throws InterruptedException {
    long bytes = batch.sizeInBytes();
    lock.lock();
    try {
      long waitStart = 0;
      try {
        while (true) {
          if (stopped()) {
            return false;
          }
          ArrayDeque<Entry> queue = queues[producer];
          if (queuedBatches[producer] < queueCapacity
              && bufferedBytes + bytes <= maxBufferedBytes) {
            bufferedBytes += bytes;
            if (bufferedBytes > stats.peakBufferedBytes.get()) {
              stats.peakBufferedBytes.set(bufferedBytes);
            }
            enqueue(producer, new Entry(seq, batch, bytes), false);
            return true;
          }
          if (seq == wantedSeq && queue.isEmpty()) {
            enqueue(producer, new Entry(seq, batch, 0), true); // hand-off, see the class comment
            return true;
          }
          if (waitStart == 0) {
            waitStart = System.nanoTime();
          }
          waitingForBudget[producer] = queuedBatches[producer] < queueCapacity;
          if (consumerWaiting) {
            consumerCanGo.signal(); // this queue may hold its next batch: don't linger on it
          }
          producerCanGo[producer].await();
        }
      } finally {
        if (waitStart != 0) {
          stats.producerWaited(System.nanoTime() - waitStart, batch, waitingForBudget[producer]);
        }
        waitingForBudget[producer] = false;
      }
    } catch (InterruptedException e) {
      if (stopped()) {
        return false;
      }
      throw e;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues a batch, waking a waiting consumer when the batch belongs to the task it waits for and
   * either a burst is ready or the batch is handed off (the budget is spent).
   */
  private void enqueue(int producer, Entry entry, boolean handOff) {
    queues[producer].addLast(entry);
    queuedBatches[producer]++;
    if (consumerWaiting && entry.seq() == wantedSeq
        && (handOff || queuedBatches[producer] >= wakeBatches)) {
      consumerCanGo.signal();
    }
  }

  /** Marks task {@code seq} of {@code producer} as complete. */
  void endTask(int producer, int seq) {
    lock.lock();
    try {
      queues[producer].addLast(new Entry(seq, null, 0));
      if (seq == wantedSeq) {
        consumerCanGo.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Called by a producer as it starts. */
  void producerStarted() {
    lock.lock();
    try {
      active++;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Called by a producer after it closed its last reader (and reported any failure to): the end
   * of the read waits for this, so that a failure to release a file is never lost.
   */
  void producerFinished() {
    lock.lock();
    try {
      if (--active == 0) {
        consumerCanGo.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Records a producer's failure; the first one wins and stops everyone. Ignored after close. */
  void fail(ReadException error) {
    lock.lock();
    try {
      if (closed || failure != null) {
        return;
      }
      failure = error;
      consumerCanGo.signalAll();
      signalAllProducers();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The consumer's next batch in order, or null at the end of all tasks. Waits without spinning
   * (in naps of at most {@link #LINGER_NANOS}, see the class doc).
   *
   * @throws ReadException the first producer failure
   * @throws InterruptedIOException when interrupted while waiting (the interrupt flag stays set)
   */
  RecordBatch take() throws IOException {
    lock.lock();
    try {
      long waitStart = 0;
      try {
        while (true) {
          if (failure != null) {
            throw failure;
          }
          if (closed) {
            throw new IllegalStateException("reader is closed");
          }
          if (wantedSeq < claimed) {
            int producer = owner[wantedSeq];
            Entry head = queues[producer].peekFirst();
            if (head != null) {
              queues[producer].pollFirst();
              if (head.batch() == null) {
                wantedSeq++;
                if (wantedSeq < claimed) {
                  producerCanGo[owner[wantedSeq]].signal(); // it may now hand off
                }
                continue;
              }
              queuedBatches[producer]--;
              producerCanGo[producer].signal();
              if (head.countedBytes() > 0) {
                bufferedBytes -= head.countedBytes();
                for (int p = 0; p < waitingForBudget.length; p++) {
                  if (waitingForBudget[p]) {
                    producerCanGo[p].signal();
                  }
                }
              }
              return head.batch();
            }
          } else if (allClaimed && active == 0) {
            return null; // only now can no producer fail any more (closing its last reader)
          }
          if (waitStart == 0) {
            waitStart = System.nanoTime();
          }
          consumerWaiting = true;
          try {
            consumerCanGo.awaitNanos(LINGER_NANOS);
          } finally {
            consumerWaiting = false;
          }
        }
      } finally {
        if (waitStart != 0) {
          stats.consumerWaited(System.nanoTime() - waitStart);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("interrupted while waiting for the next batch");
      interrupted.initCause(e);
      throw interrupted;
    } finally {
      lock.unlock();
    }
  }

  /** Stops everything: producers quit at their next step, the consumer throws. */
  void close() {
    lock.lock();
    try {
      closed = true;
      for (ArrayDeque<Entry> queue : queues) {
        queue.clear(); // drop batches now rather than when the reader is collected
      }
      bufferedBytes = 0;
      consumerCanGo.signalAll();
      signalAllProducers();
    } finally {
      lock.unlock();
    }
  }

  private void signalAllProducers() {
    for (Condition condition : producerCanGo) {
      condition.signalAll();
    }
  }

  private boolean stopped() {
    return closed || failure != null;
  }
}
