package dev.prefetch.internal.runtime;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.batch.RecordBatch;
import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who runs each producer, and how a producer without room waits: on its own thread in a condition,
 * or, on an executor, parked until the consumer resumes it.
 *
 * <h2>Run states</h2>
 *
 * With the reader's own threads ({@code parking == false}) a producer owns its thread for its whole
 * life and waits on its own {@code canGo[p]}. On an executor the caller gave ({@code parking ==
 * true}) a producer never waits for room: it runs in <em>slices</em>, and {@code runState[p]} says
 * who owns its state (its range reader, its current task and the batch it holds):
 *
 * <ul>
 *   <li>{@code QUEUED}: a slice is due. Whoever moves a producer to {@code QUEUED} submits it to
 *       the executor after releasing the lock. The first thread to begin a slice while it is {@code
 *       QUEUED} (an executor thread, or the consumer) makes it {@code RUNNING} and owns its state;
 *       any other submission finds it not {@code QUEUED} and returns, so duplicates are harmless.
 *   <li>{@code RUNNING}: one thread ({@code runner[p]}) runs the slice and owns the state.
 *   <li>{@code PARKED}: the producer found no room (for its next batch in the budget, or for its
 *       decoded batch in its queue). In the same critical section it keeps what it holds, becomes
 *       {@code PARKED} and gives its state to the exchange; its thread returns to the executor. It
 *       is moved back to {@code QUEUED} only by the consumer, under the lock, when the room it
 *       waits for frees ({@link #resumeWhere}). Since parking and every resume decision happen
 *       under the one lock, no wake-up is lost.
 *   <li>{@code DONE}: it ended (nothing to claim, failure, or stopped) and released its files.
 * </ul>
 *
 * <p><b>The consumer helps.</b> When the consumer would wait and the producer it waits on (or, with
 * nothing claimed yet, any producer) is {@code QUEUED}, it runs a slice of it on its own thread
 * ({@code helper == true}), which ends as soon as it has queued a batch the consumer can take; the
 * producer is then {@code QUEUED} again and resubmitted. So an executor with no free thread (a
 * 1-thread pool busy with another reader, a fork-join pool whose only worker is the consumer, a
 * caller-runs pool) delays a read but never deadlocks it: a slice never waits for the consumer, and
 * the consumer never waits for a producer nobody runs.
 *
 * <p>Every field is guarded by the exchange's lock; every method is called with it held.
 */
final class Scheduler {

  private static final byte QUEUED = 0;
  private static final byte RUNNING = 1;
  private static final byte PARKED = 2;
  private static final byte DONE = 3;

  /** Decides whether a parked producer's room has freed (see {@link #resumeWhere}). */
  interface Room {
    boolean freed(int producer, int seq, long bytes, boolean forBudget);
  }

  private final ReentrantLock lock;
  private final ReaderStats stats;

  /** One condition per producer, so a take wakes only the producer it made room for. */
  private final Condition[] canGo;

  @GuardedBy("lock")
  private final boolean[] waitingForBudget;

  @GuardedBy("lock")
  private final byte[] runState;

  @GuardedBy("lock")
  private final Thread[] runner;

  /** Producers that began a slice at least once (they count in {@code active} until done). */
  @GuardedBy("lock")
  private final boolean[] started;

  /** Producers that close() interrupted while running: their thread clears it when they end. */
  @GuardedBy("lock")
  private final boolean[] interruptedByClose;

  /** Of a parked producer: the task, the bytes it needs, what for, and since when. */
  @GuardedBy("lock")
  private final TaskTable.Task[] parkedTask;

  @GuardedBy("lock")
  private final long[] parkedBytes;

  @GuardedBy("lock")
  private final boolean[] parkedForBudget;

  /** The decoded batch a producer parked on a full queue holds (null: parked for the budget). */
  @GuardedBy("lock")
  private final RecordBatch[] parkedBatch;

  @GuardedBy("lock")
  private final long[] parkedSince;

  @GuardedBy("lock")
  private int parkedCount;

  /** Producers the consumer resumed; it submits them after unlocking. */
  @GuardedBy("lock")
  private final int[] resumed;

  @GuardedBy("lock")
  private int resumedCount;

  /** Producers that started and have not yet closed their last reader. */
  @GuardedBy("lock")
  private int active;

  Scheduler(ReentrantLock lock, int producers, ReaderStats stats) {
    this.lock = lock;
    this.stats = stats;
    this.canGo = new Condition[producers];
    for (int i = 0; i < producers; i++) {
      canGo[i] = lock.newCondition();
    }
    this.waitingForBudget = new boolean[producers];
    this.runState = new byte[producers]; // all QUEUED: each is about to be started or submitted
    this.runner = new Thread[producers];
    this.started = new boolean[producers];
    this.interruptedByClose = new boolean[producers];
    this.parkedTask = new TaskTable.Task[producers];
    this.parkedBytes = new long[producers];
    this.parkedForBudget = new boolean[producers];
    this.parkedBatch = new RecordBatch[producers];
    this.parkedSince = new long[producers];
    this.resumed = new int[producers];
  }

  /** {@code QUEUED -> RUNNING} on the calling thread; false when it is not {@code QUEUED}. */
  @GuardedBy("lock")
  boolean begin(int producer) {
    if (runState[producer] != QUEUED) {
      return false;
    }
    own(producer);
    return true;
  }

  /** Makes the calling thread the runner of a {@code QUEUED} producer. */
  @GuardedBy("lock")
  void own(int producer) {
    runState[producer] = RUNNING;
    runner[producer] = Thread.currentThread();
    if (!started[producer]) {
      started[producer] = true;
      active++;
    }
  }

  /** A helper's slice ends: the producer is {@code QUEUED} again (the caller submits it). */
  @GuardedBy("lock")
  void requeue(int producer) {
    runState[producer] = QUEUED;
    runner[producer] = null;
  }

  /**
   * Parks a running producer of {@code task} that needs {@code bytes} of room: in its queue for
   * {@code batch}, or in the budget before decoding its next batch ({@code batch == null}).
   */
  @GuardedBy("lock")
  void park(int producer, TaskTable.Task task, RecordBatch batch, long bytes) {
    runState[producer] = PARKED;
    runner[producer] = null;
    parkedTask[producer] = task;
    parkedBatch[producer] = batch;
    parkedBytes[producer] = bytes;
    parkedForBudget[producer] = batch == null;
    parkedSince[producer] = System.nanoTime();
    parkedCount++;
    stats.producerParks.incrementAndGet();
  }

  /** Resumes every parked producer whose room {@code room} says has freed. */
  @GuardedBy("lock")
  void resumeWhere(Room room) {
    if (parkedCount == 0) {
      return;
    }
    for (int p = 0; p < runState.length; p++) {
      if (runState[p] == PARKED
          && room.freed(p, parkedTask[p].seq(), parkedBytes[p], parkedForBudget[p])) {
        runState[p] = QUEUED;
        parkedCount--;
        stats.producerWaited(
            System.nanoTime() - parkedSince[p], parkedTask[p], parkedBatch[p], parkedForBudget[p]);
        parkedTask[p] = null;
        parkedBatch[p] = null;
        resumed[resumedCount++] = p;
      }
    }
  }

  /** Whether producers were resumed and wait to be submitted. */
  @GuardedBy("lock")
  boolean anyResumed() {
    return resumedCount > 0;
  }

  /** The producers resumed since the last call, to submit after unlocking. */
  @GuardedBy("lock")
  int[] drainResumed() {
    if (resumedCount == 0) {
      return null;
    }
    int[] drained = Arrays.copyOf(resumed, resumedCount);
    resumedCount = 0;
    return drained;
  }

  /**
   * A {@code QUEUED} producer the waiting consumer should run itself: {@code wanted}'s owner when
   * known ({@code wantedOwner >= 0}), else, while tasks remain unclaimed, any; -1 when none.
   */
  @GuardedBy("lock")
  int helpable(int wantedOwner, boolean allClaimed) {
    if (wantedOwner >= 0) {
      return runState[wantedOwner] == QUEUED ? wantedOwner : -1;
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

  /** An own-thread producer waits for room; {@code forBudget}: for the budget, not its queue. */
  @GuardedBy("lock")
  void await(int producer, boolean forBudget) throws InterruptedException {
    waitingForBudget[producer] = forBudget;
    try {
      canGo[producer].await();
    } finally {
      waitingForBudget[producer] = false;
    }
  }

  @GuardedBy("lock")
  void signal(int producer) {
    canGo[producer].signal();
  }

  /** Wakes the own-thread producers that wait for the budget. */
  @GuardedBy("lock")
  void signalBudgetWaiters() {
    for (int p = 0; p < waitingForBudget.length; p++) {
      if (waitingForBudget[p]) {
        canGo[p].signal();
      }
    }
  }

  @GuardedBy("lock")
  void signalAll() {
    for (Condition condition : canGo) {
      condition.signalAll();
    }
  }

  /**
   * A producer's own slice closed its last reader: it is {@code DONE}.
   *
   * @return whether close() interrupted this slice (its thread then clears the flag)
   */
  @GuardedBy("lock")
  boolean finished(int producer) {
    runState[producer] = DONE;
    runner[producer] = null;
    if (started[producer]) {
      started[producer] = false;
      active--;
    }
    boolean interrupted = interruptedByClose[producer];
    interruptedByClose[producer] = false;
    return interrupted;
  }

  /** Producers that started and have not yet closed their last reader. */
  @GuardedBy("lock")
  int active() {
    return active;
  }

  @GuardedBy("lock")
  boolean running(int producer) {
    return runState[producer] == RUNNING;
  }

  /**
   * Close: interrupts every running slice out of blocking I/O; every producer not running (parked,
   * queued, never started) is {@code DONE} from here on, and its state belongs to the caller.
   *
   * @return the producers whose files the caller must release
   */
  @GuardedBy("lock")
  int[] closeAll() {
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
    Arrays.fill(parkedTask, null);
    Arrays.fill(parkedBatch, null);
    return Arrays.copyOf(released, count);
  }
}
