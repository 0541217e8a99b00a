package dev.prefetch.internal.runtime;

import dev.prefetch.batch.RecordBatch;
import java.util.Arrays;

/**
 * Who owns each producer's state, and what a parked producer waits for: the run-state machine of
 * {@link Exchange} ("Producers on an executor" there), as plain data. Not thread-safe: the exchange
 * touches it only while holding its lock.
 */
final class RunStates {

  /** Who owns a producer's state (its range reader, its task, the batch it holds). */
  enum RunState {
    /** A slice is due: the next thread to begin one owns the producer. */
    QUEUED,
    /** One thread runs a slice of it and owns its state. */
    RUNNING,
    /** It found no room and gave its state to the exchange until the consumer resumes it. */
    PARKED,
    /** It ended and released its files (or close() took it over). */
    DONE
  }

  private final RunState[] state;
  private final Thread[] runner;

  /** Producers that began a slice at least once (they count in {@link #active} until done). */
  private final boolean[] started;

  /** Producers that close() interrupted while running: their thread clears it when they end. */
  private final boolean[] interruptedByClose;

  // Of a parked producer: the task, the bytes it needs and what for, the batch it holds (null when
  // parked for the budget) and since when.
  private final TaskTable.Task[] parkedTask;
  private final long[] parkedBytes;
  private final boolean[] parkedForBudget;
  private final RecordBatch[] parkedBatch;
  private final long[] parkedSince;
  private int parkedCount;

  /** Producers resumed and not yet submitted (the exchange submits them after unlocking). */
  private final int[] resumed;

  private int resumedCount;

  /** Producers that started and have not yet closed their last reader. */
  private int active;

  RunStates(int producers) {
    this.state = new RunState[producers];
    Arrays.fill(state, RunState.QUEUED); // each is about to be started or submitted
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

  int producers() {
    return state.length;
  }

  boolean is(int producer, RunState expected) {
    return state[producer] == expected;
  }

  /** Makes the calling thread the runner of a {@code QUEUED} producer. */
  void own(int producer) {
    state[producer] = RunState.RUNNING;
    runner[producer] = Thread.currentThread();
    if (!started[producer]) {
      started[producer] = true;
      active++;
    }
  }

  /** A helper's slice ends: the producer is {@code QUEUED} again. */
  void requeue(int producer) {
    state[producer] = RunState.QUEUED;
    runner[producer] = null;
  }

  /**
   * Parks a running producer of {@code task} that needs {@code bytes} of room: in its queue for
   * {@code batch}, or in the budget before decoding its next batch ({@code forBudget}).
   */
  void park(int producer, TaskTable.Task task, RecordBatch batch, long bytes, boolean forBudget) {
    state[producer] = RunState.PARKED;
    runner[producer] = null;
    parkedTask[producer] = task;
    parkedBatch[producer] = batch;
    parkedBytes[producer] = bytes;
    parkedForBudget[producer] = forBudget;
    parkedSince[producer] = System.nanoTime();
    parkedCount++;
  }

  int parkedCount() {
    return parkedCount;
  }

  TaskTable.Task parkedTask(int producer) {
    return parkedTask[producer];
  }

  long parkedBytes(int producer) {
    return parkedBytes[producer];
  }

  boolean parkedForBudget(int producer) {
    return parkedForBudget[producer];
  }

  RecordBatch parkedBatch(int producer) {
    return parkedBatch[producer];
  }

  long parkedSince(int producer) {
    return parkedSince[producer];
  }

  /** A parked producer becomes {@code QUEUED}, to be submitted ({@link #drainResumed}). */
  void resume(int producer) {
    state[producer] = RunState.QUEUED;
    parkedCount--;
    parkedTask[producer] = null;
    parkedBatch[producer] = null;
    resumed[resumedCount++] = producer;
  }

  boolean anyResumed() {
    return resumedCount > 0;
  }

  /** The producers resumed since the last call, or null for none. */
  int[] drainResumed() {
    if (resumedCount == 0) {
      return null;
    }
    int[] drained = Arrays.copyOf(resumed, resumedCount);
    resumedCount = 0;
    return drained;
  }

  /**
   * A {@code QUEUED} producer the waiting consumer should run itself: {@code wantedOwner} when
   * known ({@code >= 0}), else, while tasks remain unclaimed, any; -1 when none.
   */
  int helpable(int wantedOwner, boolean allClaimed) {
    if (wantedOwner >= 0) {
      return state[wantedOwner] == RunState.QUEUED ? wantedOwner : -1;
    }
    if (!allClaimed) {
      for (int p = 0; p < state.length; p++) {
        if (state[p] == RunState.QUEUED) {
          return p;
        }
      }
    }
    return -1;
  }

  /**
   * A producer's own slice closed its last reader: it is {@code DONE}.
   *
   * @return whether close() interrupted this slice (its thread then clears the flag)
   */
  boolean finished(int producer) {
    state[producer] = RunState.DONE;
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
  int active() {
    return active;
  }

  /**
   * Close: interrupts every running slice out of blocking I/O; every producer not running (parked,
   * queued, never started) is {@code DONE} from here on, and its state belongs to the caller.
   *
   * @return the producers whose files the caller must release
   */
  int[] closeAll() {
    int[] released = new int[state.length];
    int count = 0;
    for (int p = 0; p < state.length; p++) {
      if (state[p] == RunState.RUNNING) {
        interruptedByClose[p] = true;
        runner[p].interrupt();
      } else if (state[p] != RunState.DONE) {
        state[p] = RunState.DONE;
        released[count++] = p;
      }
    }
    parkedCount = 0;
    Arrays.fill(parkedTask, null);
    Arrays.fill(parkedBatch, null);
    return Arrays.copyOf(released, count);
  }
}
