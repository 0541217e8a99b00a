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
 * queues, the memory budget, producer scheduling, failure and close.
 *
 * <h2>Threads and ownership</h2>
 *
 * Producer {@code p} claims tasks (a file's read range, numbered by a global sequence {@code seq}
 * in file-then-row order) and appends their batches to its own queue {@code queues[p]}; the
 * consumer removes them. Every field below is guarded by {@link #lock}: one lock keeps the protocol
 * simple to reason about, and it is taken once per batch (thousands of rows), so it is never
 * contended enough to matter.
 *
 * <h2>Protocol</h2>
 *
 * <ul>
 *   <li><b>Dynamic assignment.</b> An idle producer claims the next unclaimed task ({@link
 *       #claim}), so a slow range delays only its own producer. {@code owner[seq]} records who
 *       claimed it. A producer works on its claims in increasing order, so each queue holds tasks
 *       in increasing order.
 *   <li><b>Ordered merge.</b> The consumer reads task {@code wantedSeq} from its owner's queue head
 *       until that task's end marker, then moves to {@code wantedSeq + 1}: the task that starts
 *       where the previous one ended. Batches therefore come out exactly as a single reader makes
 *       them.
 *   <li><b>Backpressure.</b> A batch enters a queue only while the queue holds fewer than {@code
 *       queueCapacity} batches and the counted bytes of all queues stay within {@code
 *       maxBufferedBytes}; otherwise its producer waits (own threads) or parks (an executor, see
 *       below). End markers are not counted.
 *   <li><b>Hand-off.</b> One case would deadlock a strict budget: the consumer waits for task
 *       {@code wantedSeq} while later tasks' batches fill the budget. So a batch of {@code
 *       wantedSeq} whose owner's queue is empty is always admitted, uncounted: the consumer is
 *       about to take it, as if handed over directly. Counted bytes thus never exceed the budget,
 *       and progress is guaranteed.
 * </ul>
 *
 * <h2>Producers on an executor: slices, parking, resubmission</h2>
 *
 * With the reader's own threads ({@code parking == false}) a producer owns its thread for its whole
 * life and waits in {@link #put} on its own {@code producerCanGo[p]}, as before. On an executor the
 * caller gave ({@code parking == true}) a producer never waits for room: it runs in
 * <em>slices</em>, and {@code runState[p]} (guarded by the lock) says who owns its state (its range
 * reader, its current task and the batch it holds):
 *
 * <ul>
 *   <li>{@code QUEUED}: a slice is due. Whoever moves a producer to {@code QUEUED} submits it to
 *       the executor after releasing the lock. The first thread to call {@link #beginSlice} while
 *       it is {@code QUEUED} (an executor thread, or the consumer, see below) makes it {@code
 *       RUNNING} and owns its state; any other submission of it finds it not {@code QUEUED} and
 *       returns at once, so duplicate submissions are harmless.
 *   <li>{@code RUNNING}: one thread ({@code runner[p]}) runs the slice and owns the state.
 *   <li>{@code PARKED}: {@link #put} found no room. In the same critical section the producer keeps
 *       its batch in its own state, becomes {@code PARKED} and gives up ownership to the exchange;
 *       its thread returns to the executor. It is moved back to {@code QUEUED} only by the
 *       consumer, under the lock, when room frees: its queue has room for a burst ({@link
 *       #resumeRoom} batches), counted bytes were freed while it waited for budget, or the consumer
 *       moved on to its task (it may hand off). Because the decision to park and every decision to
 *       resume are made under the one lock, no wake-up is lost.
 *   <li>{@code DONE}: it ended (nothing to claim, failure, or stopped) and released its files.
 * </ul>
 *
 * <b>The consumer helps.</b> When the consumer would wait and the producer it waits on (or, with
 * nothing claimed yet, any producer) is {@code QUEUED}, it runs a slice of it on its own thread
 * instead ({@code helper == true}), which ends as soon as it has queued a batch the consumer can
 * take; the producer is then {@code QUEUED} again and resubmitted. So an executor with no free
 * thread (a 1-thread pool busy with another reader, a fork-join pool whose only worker is the
 * consumer, a caller-runs pool) delays a read but never deadlocks it: a producer's slice never
 * waits for the consumer, and the consumer never waits for a producer nobody runs.
 *
 * <h2>End</h2>
 *
 * {@link #take} returns null once every task is consumed and every producer that started has closed
 * its last reader ({@code active == 0}): a reader that fails to close after the last batch still
 * fails the read, as on the single path, instead of racing the consumer to the end. A producer that
 * starts later claims nothing and opens nothing, so it cannot fail.
 *
 * <h2>Who blocks, and how close and failures win</h2>
 *
 * Own-thread producers block only in {@link #put} (queue full or budget spent), each on its own
 * {@code producerCanGo[p]}; the consumer blocks only in {@link #take} on {@code consumerCanGo}.
 * Neither spins. Every state change that could unblock a waiter signals (or resumes) exactly that
 * waiter: a take signals the producer whose queue it shortened, and the producers waiting for
 * budget when it freed counted bytes; moving to the next task signals that task's owner (it may
 * hand off); failure and close signal everyone. {@link #close()} sets the flag, interrupts every
 * {@code RUNNING} slice out of blocking I/O, and takes every {@code PARKED} or {@code QUEUED}
 * producer's state for itself ({@code DONE}): the closing thread releases those producers' files,
 * since no slice of them will run again. A failure of task {@code F} ({@link #fail}) stops all
 * claims and the producers of tasks after {@code F}; producers of earlier tasks finish them, so the
 * consumer gets every batch before the failing one first. Producers parked on tasks after {@code F}
 * stay parked until close releases them.
 *
 * <h2>Waking the consumer in bursts</h2>
 *
 * The consumer usually works faster than a producer, so it would sleep after every batch and be
 * woken for the next one: a futex call and a cross-core wake-up per batch, which on a virtual
 * machine cost as much CPU as a tenth of the decoding. So a waiting consumer is woken only when the
 * producer it waits on has {@code wakeBatches} batches queued, when that producer ends the task,
 * hands a batch off or is about to wait (or park) itself, or on failure and close. A batch that
 * arrives alone (its producer then busy with I/O, say) is not forgotten: the consumer waits at most
 * {@link #LINGER_NANOS} at a time, then takes whatever is queued. {@link #close()} and {@link
 * #fail} signal everyone: after close every producer returns {@code STOPPED} from {@code put} and
 * the consumer throws; after a failure of task {@code F} the producers of later tasks return {@code
 * STOPPED}, nobody claims, and the consumer throws the failure once it reaches {@code F} and has
 * taken F's batches (or has consumed every claimed task, for a failure outside any task), and on
 * every later {@code take}. Of several failures the earliest in task order is kept.
 *
 * <h2>Invariant</h2>
 *
 * For every queue, the entries are in increasing {@code seq}, and every entry's {@code seq} is
 * {@code >= wantedSeq}; so the head of {@code queues[owner[wantedSeq]]}, if any, belongs to {@code
 * wantedSeq}. A change must keep it, or the merge reorders rows. And a producer's state is touched
 * only by the one owner its {@code runState} names.
 */
final class Exchange {

  /** A claimed task: read {@code range} of file {@code fileIndex} (planned as {@code plan}). */
  record Task(int seq, int fileIndex, FilePlan plan, ReadRange range) {}

  /** A queue entry: a batch, or the end of task {@code seq} when {@code batch} is null. */
  record Entry(int seq, RecordBatch batch, long countedBytes) {}

  /** Runs producers' slices: submits them to the executor, or runs one on the consumer. */
  interface Slices {
    /** Submits a slice of {@code producer} (now {@code QUEUED}) to the executor. */
    void submit(int producer);

    /** Runs a slice of {@code producer} (already {@code RUNNING}) on the calling consumer. */
    void help(int producer);
  }

  /** Outcomes of {@link #put}. */
  static final int ADMITTED = 0;

  /** No room: the producer is {@code PARKED} and keeps its batch; its slice must return now. */
  static final int PARKED = 1;

  /** Closed or failed: the producer must quit. */
  static final int STOPPED = 2;

  /** Admitted, and a helping consumer can now take it: the helper's slice should end. */
  static final int YIELD = 3;

  // Run states of a producer (see the class doc).
  private static final byte QUEUED = 0;
  private static final byte RUNNING = 1;
  private static final byte PARKED_STATE = 2;
  private static final byte DONE = 3;

  /** Batches a waiting consumer lets its producer queue before it is woken (see the class doc). */
  static final int WAKE_BATCHES = 4;

  /** The longest a waiting consumer sleeps before it looks for queued batches itself. */
  static final long LINGER_NANOS = 10_000_000L;

  private final FileSequence files;
  private final int queueCapacity;

  /** {@link #WAKE_BATCHES}, or fewer when a queue holds fewer, so that a full queue wakes. */
  private final int wakeBatches;

  /**
   * Free queue slots a producer parked on a full queue needs before it is resumed: enough for a
   * burst, so that a resubmission is not paid per batch (at least one, at most half the queue).
   */
  private final int resumeRoom;

  private final long maxBufferedBytes;
  private final ReaderStats stats;

  /** True when producers run on an executor: they park instead of waiting (see the class doc). */
  private final boolean parking;

  private Slices slices;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition consumerCanGo = lock.newCondition();

  /** One condition per producer, so a take wakes only the producer it made room for. */
  private final Condition[] producerCanGo;

  // All guarded by lock.
  private final ArrayDeque<Entry>[] queues;
  private final int[] queuedBatches;

  /** Producers waiting because the memory budget (not their queue) is full. */
  private final boolean[] waitingForBudget;

  private final byte[] runState;

  /** The thread running each {@code RUNNING} producer's slice, else null. */
  private final Thread[] runner;

  /** Producers that began a slice at least once (they count in {@code active} until done). */
  private final boolean[] started;

  /** Producers that close() interrupted while running: their thread clears it when they end. */
  private final boolean[] interruptedByClose;

  /** Of a {@code PARKED} producer: the seq and bytes of the batch it holds, and since when. */
  private final int[] parkedSeq;

  private final long[] parkedBytes;
  private final long[] parkedSince;

  /** The batch a parked producer holds and whether it waits for the budget (for its event). */
  private final RecordBatch[] parkedBatch;

  private final boolean[] parkedForBudget;
  private int parkedCount;

  /** Producers the consumer resumed in the current take; it submits them after unlocking. */
  private final int[] resumed;

  private int resumedCount;
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

  /**
   * The task the failure belongs to ({@code Integer.MAX_VALUE}: none, it surfaces once every
   * claimed task is consumed). Tasks before it are still read and returned, as on the single path;
   * producers of later tasks stop.
   */
  private int failureSeq = Integer.MAX_VALUE;

  private boolean closed;

  @SuppressWarnings("unchecked")
  Exchange(
      FileSequence files,
      int producers,
      int queueCapacity,
      long maxBufferedBytes,
      ReaderStats stats,
      boolean parking) {
    this.files = files;
    this.queueCapacity = queueCapacity;
    this.wakeBatches = Math.min(WAKE_BATCHES, queueCapacity);
    this.resumeRoom = Math.max(1, Math.min(WAKE_BATCHES, queueCapacity / 2));
    this.maxBufferedBytes = maxBufferedBytes;
    this.stats = stats;
    this.parking = parking;
    this.queues = new ArrayDeque[producers];
    for (int i = 0; i < producers; i++) {
      queues[i] = new ArrayDeque<>();
    }
    this.queuedBatches = new int[producers];
    this.waitingForBudget = new boolean[producers];
    this.runState = new byte[producers]; // all QUEUED: each is about to be started or submitted
    this.runner = new Thread[producers];
    this.started = new boolean[producers];
    this.interruptedByClose = new boolean[producers];
    this.parkedSeq = new int[producers];
    this.parkedBytes = new long[producers];
    this.parkedBatch = new RecordBatch[producers];
    this.parkedForBudget = new boolean[producers];
    this.parkedSince = new long[producers];
    this.resumed = new int[producers];
    this.producerCanGo = new Condition[producers];
    for (int i = 0; i < producers; i++) {
      producerCanGo[i] = lock.newCondition();
    }
  }

  /** The files read, whose plans producers open readers on. */
  FileSequence files() {
    return files;
  }

  /** Sets who runs slices; called once, before any producer is started. */
  void attach(Slices slices) {
    this.slices = slices;
  }

  /**
   * Called by a thread about to run a slice of {@code producer}. Returns true when it now owns the
   * producer ({@code QUEUED -> RUNNING}); false when the producer is running elsewhere, parked, or
   * done (a duplicate or stale submission), and the thread must not touch it.
   */
  boolean beginSlice(int producer) {
    lock.lock();
    try {
      if (runState[producer] != QUEUED) {
        return false;
      }
      own(producer);
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void own(int producer) {
    runState[producer] = RUNNING;
    runner[producer] = Thread.currentThread();
    if (!started[producer]) {
      started[producer] = true;
      active++;
    }
  }

  /**
   * Ends a helper's slice after {@link #YIELD}: the producer becomes {@code QUEUED} again (the
   * caller then submits it). Called after the producer's last touch of its own state. Returns false
   * when the exchange is closed: the caller then finishes the producer itself. (After a failure the
   * producer goes on: its task may come before the failing one.)
   */
  boolean yieldSlice(int producer) {
    lock.lock();
    try {
      if (closed) {
        return false; // close may have passed this producer by: it finishes on this thread
      }
      runState[producer] = QUEUED;
      runner[producer] = null;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Submits a slice of {@code producer}, which {@link #yieldSlice} made {@code QUEUED}. */
  void submit(int producer) {
    slices.submit(producer);
  }

  /**
   * Claims the next task for {@code producer}, planning the next file (outside the lock) when the
   * claims reach it. Returns null when every task is claimed or the exchange is stopped.
   */
  Task claim(int producer) throws IOException {
    while (true) {
      int fileToPlan;
      int doneFile = -1;
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
            doneFile = cursorFile; // handed out whole: released outside the lock, below
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
        if (doneFile >= 0) {
          files.claimsDone(doneFile);
        }
      }
      // Metadata I/O happens outside the lock; concurrent claimers wait in FileSequence.
      files.planForRead(fileToPlan);
    }
  }

  /**
   * Appends a batch of task {@code seq} to {@code producer}'s queue. A producer on its own thread
   * waits for space; one on an executor parks instead (see the class doc).
   *
   * @param helper whether the slice runs on the consumer's thread (it yields once the consumer can
   *     take this batch)
   * @return {@link #ADMITTED}, {@link #YIELD}, {@link #PARKED} (the caller keeps the batch and
   *     returns from its slice without touching its state again) or {@link #STOPPED}
   */
  int put(int producer, int seq, RecordBatch batch, boolean helper) throws InterruptedException {
    long bytes = batch.sizeInBytes();
    lock.lock();
    try {
      long waitStart = 0;
      try {
        while (true) {
          if (stopped(seq)) {
            return STOPPED;
          }
          ArrayDeque<Entry> queue = queues[producer];
          if (queuedBatches[producer] < queueCapacity
              && bufferedBytes + bytes <= maxBufferedBytes) {
            bufferedBytes += bytes;
            if (bufferedBytes > stats.peakBufferedBytes.get()) {
              stats.peakBufferedBytes.set(bufferedBytes);
            }
            enqueue(producer, new Entry(seq, batch, bytes), false);
            return helper && seq == wantedSeq ? YIELD : ADMITTED;
          }
          if (seq == wantedSeq && queue.isEmpty()) {
            enqueue(producer, new Entry(seq, batch, 0), true); // hand-off, see the class comment
            return helper ? YIELD : ADMITTED;
          }
          if (consumerWaiting) {
            consumerCanGo.signal(); // this queue may hold its next batch: don't linger on it
          }
          if (parking) {
            // Parking and every resume decision happen under this lock: no wake-up is lost.
            runState[producer] = PARKED_STATE;
            runner[producer] = null;
            parkedSeq[producer] = seq;
            parkedBytes[producer] = bytes;
            parkedBatch[producer] = batch;
            parkedForBudget[producer] = queuedBatches[producer] < queueCapacity;
            parkedSince[producer] = System.nanoTime();
            parkedCount++;
            stats.producerParks.incrementAndGet();
            return PARKED;
          }
          if (waitStart == 0) {
            waitStart = System.nanoTime();
          }
          waitingForBudget[producer] = queuedBatches[producer] < queueCapacity;
          producerCanGo[producer].await();
        }
      } finally {
        if (waitStart != 0) {
          stats.producerWaited(System.nanoTime() - waitStart, batch, waitingForBudget[producer]);
        }
        waitingForBudget[producer] = false;
      }
    } catch (InterruptedException e) {
      if (stopped(seq)) {
        return STOPPED;
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
    if (consumerWaiting
        && entry.seq() == wantedSeq
        && (handOff || queuedBatches[producer] >= wakeBatches)) {
      consumerCanGo.signal();
    }
  }

  /**
   * Marks task {@code seq} of {@code producer} as complete.
   *
   * @return whether it is the task the consumer waits for (a helper then yields)
   */
  boolean endTask(int producer, int seq) {
    lock.lock();
    try {
      queues[producer].addLast(new Entry(seq, null, 0));
      if (seq == wantedSeq) {
        consumerCanGo.signal();
        return true;
      }
      return false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Called by a producer's own slice after it closed its last reader (and reported any failure to):
   * the end of the read waits for this, so that a failure to release a file is never lost.
   *
   * @return whether close() interrupted this slice (its thread then clears the flag)
   */
  boolean producerFinished(int producer) {
    lock.lock();
    try {
      runState[producer] = DONE;
      runner[producer] = null;
      if (started[producer] && --active == 0) {
        consumerCanGo.signal();
      }
      boolean interrupted = interruptedByClose[producer];
      interruptedByClose[producer] = false;
      return interrupted;
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@code producer} is in a slice now (after close: one not yet back from I/O). */
  boolean running(int producer) {
    lock.lock();
    try {
      return runState[producer] == RUNNING;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Records a failure of task {@code seq} (-1: of none); the earliest in read order wins (of two at
   * the same task, the first). Nothing is claimed after it and producers of later tasks stop;
   * earlier tasks are still read, so the consumer gets every batch before the failing one, as on
   * the single path. Ignored after close.
   */
  void fail(ReadException error, int seq) {
    lock.lock();
    try {
      int at = seq < 0 ? Integer.MAX_VALUE : seq;
      if (closed || (failure != null && at >= failureSeq)) {
        return;
      }
      // The earliest failure in read order wins, as on the single path: a producer that failed
      // at an earlier task never ends it, so a later failure must not be what the consumer
      // waits for.
      failure = error;
      failureSeq = at;
      consumerCanGo.signalAll();
      signalAllProducers();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The consumer's next batch in order, or null at the end of all tasks. Waits without spinning (in
   * naps of at most {@link #LINGER_NANOS}, see the class doc); on an executor it runs a slice of
   * the producer it waits for when no thread does.
   *
   * @throws ReadException the first producer failure
   * @throws InterruptedIOException when interrupted while waiting (the interrupt flag stays set)
   */
  RecordBatch take() throws IOException {
    long waitStart = 0;
    try {
      while (true) {
        int help = -1;
        lock.lock();
        try {
          while (true) {
            if (closed) {
              throw new IllegalStateException("reader is closed");
            }
            if (failure != null
                && wantedSeq >= Math.min(failureSeq, claimed)
                && (wantedSeq >= claimed || queues[owner[wantedSeq]].isEmpty())) {
              throw failure; // every batch before the failing one was returned
            }
            if (wantedSeq < claimed) {
              int producer = owner[wantedSeq];
              Entry head = queues[producer].pollFirst();
              if (head != null) {
                if (head.batch() == null) {
                  wantedSeq++;
                  if (parking) {
                    resumeWhereRoom();
                  } else if (wantedSeq < claimed) {
                    producerCanGo[owner[wantedSeq]].signal(); // it may now hand off
                  }
                  continue;
                }
                queuedBatches[producer]--;
                bufferedBytes -= head.countedBytes();
                if (parking) {
                  resumeWhereRoom();
                } else {
                  producerCanGo[producer].signal();
                  if (head.countedBytes() > 0) {
                    for (int p = 0; p < waitingForBudget.length; p++) {
                      if (waitingForBudget[p]) {
                        producerCanGo[p].signal();
                      }
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
            if (parking && (help = helpable()) >= 0) {
              if (Thread.interrupted()) {
                // The consumer's own interrupt: it must end this wait as an interrupt, not
                // reach a producer's I/O and fail the read (the catch below restores the flag).
                throw new InterruptedException();
              }
              own(help);
              break;
            }
            if (resumedCount > 0) {
              break; // submit the producers resumed above before sleeping, then look again
            }
            consumerWaiting = true;
            try {
              consumerCanGo.awaitNanos(LINGER_NANOS);
            } finally {
              consumerWaiting = false;
            }
          }
        } finally {
          lock.unlock();
          submitResumed();
        }
        if (help >= 0) {
          slices.help(help);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("interrupted while waiting for the next batch");
      interrupted.initCause(e);
      throw interrupted;
    } finally {
      if (waitStart != 0) {
        stats.consumerWaited(System.nanoTime() - waitStart);
      }
    }
  }

  /**
   * A {@code QUEUED} producer the waiting consumer should run itself: the owner of the task it
   * waits for, or, before anyone claimed that task, any; -1 when a thread runs them already.
   */
  private int helpable() {
    if (wantedSeq < claimed) {
      int producer = owner[wantedSeq];
      return runState[producer] == QUEUED ? producer : -1;
    }
    if (!allClaimed) {
      for (int p = 0; p < runState.length; p++) {
        if (runState[p] == QUEUED) {
          return p;
        }
      }
    }
    return -1;
  }

  /**
   * Resumes every parked producer whose batch would now be admitted: its queue has room for a burst
   * and the budget room for the batch, or the batch can be handed off. Consumer only.
   */
  private void resumeWhereRoom() {
    if (parkedCount == 0) {
      return;
    }
    for (int p = 0; p < runState.length; p++) {
      if (runState[p] != PARKED_STATE) {
        continue;
      }
      boolean room =
          queueCapacity - queuedBatches[p] >= resumeRoom
              && bufferedBytes + parkedBytes[p] <= maxBufferedBytes;
      boolean handOff = parkedSeq[p] == wantedSeq && queues[p].isEmpty();
      if (room || handOff) {
        runState[p] = QUEUED;
        parkedCount--;
        stats.producerWaited(
            System.nanoTime() - parkedSince[p], parkedBatch[p], parkedForBudget[p]);
        parkedBatch[p] = null;
        resumed[resumedCount++] = p;
      }
    }
  }

  /** Submits the producers {@link #resumeWhereRoom} resumed, after the lock is released. */
  private void submitResumed() {
    int count = resumedCount;
    resumedCount = 0;
    for (int i = 0; i < count; i++) {
      slices.submit(resumed[i]);
    }
  }

  /**
   * Stops everything: producers quit at their next step, the consumer throws. Running slices are
   * interrupted out of blocking I/O; producers not running (parked, queued, never started) are
   * {@code DONE} from here on and their states belong to the caller.
   *
   * @return the producers whose files the caller must release now
   */
  int[] close() {
    lock.lock();
    try {
      closed = true;
      for (ArrayDeque<Entry> queue : queues) {
        queue.clear(); // drop batches now rather than when the reader is collected
      }
      bufferedBytes = 0;
      consumerCanGo.signalAll();
      signalAllProducers();
      int[] released = new int[runState.length];
      int count = 0;
      for (int p = 0; p < runState.length; p++) {
        if (runState[p] == RUNNING) {
          interruptedByClose[p] = true;
          runner[p].interrupt();
        } else if (runState[p] != DONE) {
          runState[p] = DONE;
          released[count++] = p;
        }
      }
      parkedCount = 0;
      return Arrays.copyOf(released, count);
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

  /** Whether a producer of task {@code seq} must stop: closed, or failed at an earlier task. */
  private boolean stopped(int seq) {
    return closed || (failure != null && seq > failureSeq);
  }
}
