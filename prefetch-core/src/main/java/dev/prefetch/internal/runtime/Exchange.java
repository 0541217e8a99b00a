package dev.prefetch.internal.runtime;

import dev.prefetch.ReadException;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.internal.runtime.ProducerQueues.Entry;
import dev.prefetch.internal.runtime.TaskTable.Task;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The meeting point of P producers and one consumer. Its parts, all under this class's one lock:
 * the {@link TaskTable} (which producer reads which task), the {@link ProducerQueues}, the {@link
 * Budget} and the {@link Scheduler} (run states, waits and parking); this class holds the protocol
 * that ties them together, failure and close.
 *
 * <h2>Threads and ownership</h2>
 *
 * Producer {@code p} claims tasks (a file's read range, numbered by a global sequence {@code seq}
 * in file-then-row order) and appends their batches to its own queue; the consumer removes them.
 * One lock, taken a few times per batch (thousands of rows), keeps the protocol simple; only the
 * formats' part of the budget changes without it (see {@link Budget}).
 *
 * <h2>Protocol</h2>
 *
 * <ul>
 *   <li><b>Dynamic assignment.</b> An idle producer claims the next unclaimed task ({@link
 *       #claim}), so a slow range delays only its own producer. A producer works on its claims in
 *       increasing order, so each queue holds tasks in increasing order.
 *   <li><b>Ordered merge.</b> The consumer reads task {@code wantedSeq} from its owner's queue head
 *       until that task's end marker, then moves to {@code wantedSeq + 1}. Batches therefore come
 *       out exactly as a single reader makes them.
 *   <li><b>Budget before decoding.</b> A producer decodes its next batch only after {@link
 *       #reserve} found room in the budget for a batch as large as its last one: queued batches,
 *       every producer's reservation or decoded batch, and what the range readers report through
 *       their ledgers all count ({@link Budget}). Once decoded, the batch's real size replaces the
 *       reservation until it is queued; queued, it counts until the consumer takes it.
 *   <li><b>Queue capacity.</b> A decoded batch enters its queue ({@link #put}) while the queue
 *       holds fewer than its capacity in batches; end markers are not counted.
 *   <li><b>Hand-off.</b> One case would deadlock a strict budget: the consumer waits for task
 *       {@code wantedSeq} while later tasks and the readers' buffers fill the budget. So the owner
 *       of {@code wantedSeq} whose queue is empty may always reserve: the consumer is about to take
 *       its batch, as if handed over directly. So the budget is exceeded only by hand-offs, by what
 *       readers report during one decode each, and by a batch larger than its reservation, and
 *       progress is guaranteed.
 * </ul>
 *
 * Producers on the reader's own threads wait for room; on an executor they park instead and are
 * resumed by the consumer, which also runs a producer's slice itself rather than wait for one
 * nobody runs (see {@link Scheduler}).
 *
 * <h2>End, failure, close</h2>
 *
 * {@link #take} returns null once every task is consumed and every producer that started has closed
 * its last reader: a reader that fails to close after the last batch still fails the read. Every
 * state change that could unblock a waiter signals (or resumes) that waiter: a take signals the
 * producer whose queue it shortened and the producers waiting for budget; moving to the next task
 * signals that task's owner (it may hand off); failure and close signal everyone. {@link #close()}
 * interrupts every running slice and takes every parked or queued producer's state for itself. A
 * failure of task {@code F} ({@link #fail}) stops all claims and the producers of later tasks;
 * producers of earlier tasks finish them, so the consumer gets every batch before the failing one,
 * then the failure. Of several failures the earliest in task order is kept.
 *
 * <h2>Waking the consumer in bursts</h2>
 *
 * A waiting consumer is woken when its producer has {@code wakeBatches} batches queued, ends the
 * task, hands a batch off or is about to wait (or park), or on failure and close: a wake-up per
 * batch cost a tenth of the decoding on a virtual machine. It naps {@link #LINGER_NANOS} at most.
 *
 * <h2>Invariant</h2>
 *
 * For every queue, the entries are in increasing {@code seq}, and every entry's {@code seq} is
 * {@code >= wantedSeq}; so the head of the queue of {@code wantedSeq}'s owner, if any, belongs to
 * {@code wantedSeq}. A change must keep it, or the merge reorders rows. A producer's state is
 * touched only by the one owner its run state names. And a producer decodes only with a reservation
 * granted under the lock.
 */
// Every part (state, tasks, queues, budget, scheduler) guards its fields with the one lock it was
// built with, this exchange's lock; Error Prone cannot see that their lock fields alias this.lock,
// so its check runs inside the parts (each method there states the lock it needs) and not here.
@SuppressWarnings("GuardedBy")
final class Exchange {

  // Outcomes of put and reserve. ADMITTED: go on. PARKED: no room, the producer is parked and
  // keeps what it holds, its slice must return now. STOPPED: closed or failed, the producer must
  // quit. YIELD: admitted, and a helping consumer can now take it, so the helper's slice ends.
  static final int ADMITTED = 0;
  static final int PARKED = 1;
  static final int STOPPED = 2;
  static final int YIELD = 3;

  /** Batches a waiting consumer lets its producer queue before it is woken (see the class doc). */
  static final int WAKE_BATCHES = 4;

  /** The longest a waiting consumer sleeps before it looks for queued batches itself. */
  static final long LINGER_NANOS = 10_000_000L;

  private final FileSequence files;
  private final ReaderStats stats;

  /** True when producers run on an executor: they park instead of waiting. */
  private final boolean parking;

  /** {@link #WAKE_BATCHES}, or fewer when a queue holds fewer, so that a full queue wakes. */
  private final int wakeBatches;

  private final ExchangeState state = new ExchangeState();
  private final ReentrantLock lock = state.lock;
  private final Condition consumerCanGo = state.consumerCanGo;
  private final TaskTable tasks;
  private final ProducerQueues queues;
  private final Budget budget;
  private final Scheduler scheduler;
  private final Merge merge;
  private Slices slices;

  Exchange(
      FileSequence files,
      int producers,
      int queueCapacity,
      long maxBufferedBytes,
      ReaderStats stats,
      boolean parking) {
    this.files = files;
    this.stats = stats;
    this.parking = parking;
    this.wakeBatches = Math.min(WAKE_BATCHES, queueCapacity);
    this.tasks = new TaskTable(lock, files);
    this.queues = new ProducerQueues(lock, producers, queueCapacity);
    this.budget = new Budget(lock, maxBufferedBytes, producers, stats);
    this.scheduler = new Scheduler(lock, producers, stats);
    this.merge = new Merge(state, tasks, queues, budget, scheduler, stats, parking);
  }

  /** The files read, whose plans producers open readers on. */
  FileSequence files() {
    return files;
  }

  /** The budget, whose ledgers the producers hand their range readers. */
  Budget budget() {
    return budget;
  }

  /** Sets who runs slices; called once, before any producer is started. */
  void attach(Slices slices) {
    this.slices = slices;
    merge.attach(slices);
  }

  /** A thread is about to run a slice of {@code producer}: true when it now owns it. */
  boolean beginSlice(int producer) {
    lock.lock();
    try {
      return scheduler.begin(producer);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends a helper's slice after {@link #YIELD}: the producer becomes {@code QUEUED} again (the
   * caller then submits it). Returns false when the exchange is closed: the caller then finishes
   * the producer itself.
   */
  boolean yieldSlice(int producer) {
    lock.lock();
    try {
      if (state.closed) {
        return false; // close may have passed this producer by: it finishes on this thread
      }
      scheduler.requeue(producer);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Claims the next task for {@code producer}, planning the next file (outside the lock) when the
   * claims reach it. Returns null when every task is claimed or the exchange is stopped.
   */
  Task claim(int producer) throws IOException {
    while (true) {
      TaskTable.Step step;
      lock.lock();
      try {
        if (state.stopped()) {
          return null;
        }
        step = tasks.claim(producer);
        if (step == null) {
          consumerCanGo.signal(); // all claimed: the consumer may be at the end
          return null;
        }
      } finally {
        lock.unlock();
      }
      if (step.doneFile() >= 0) {
        files.claimsDone(step.doneFile()); // handed out whole: its plan goes with its last reader
      }
      if (step.task() != null) {
        return step.task();
      }
      if (step.planFile() >= 0) {
        // Metadata I/O happens outside the lock; concurrent claimers wait in FileSequence.
        files.planForRead(step.planFile());
      }
    }
  }

  /**
   * Reserves room in the budget for the next batch of {@code task}, expected to take {@code bytes};
   * the producer decodes only after this returned {@link #ADMITTED}. Waits (own threads) or parks.
   */
  int reserve(int producer, Task task, long bytes) throws InterruptedException {
    return admit(producer, task, bytes, null, false);
  }

  /**
   * Appends the decoded {@code batch} of {@code task} to {@code producer}'s queue, waiting (own
   * threads) or parking while the queue is full.
   *
   * @param helper whether the slice runs on the consumer's thread (it yields once the consumer can
   *     take this batch)
   * @return {@link #ADMITTED}, {@link #YIELD}, {@link #PARKED} (the caller keeps the batch and
   *     returns from its slice without touching its state again) or {@link #STOPPED}
   */
  int put(int producer, Task task, RecordBatch batch, boolean helper) throws InterruptedException {
    return admit(producer, task, batch.sizeInBytes(), batch, helper);
  }

  /** {@link #reserve} ({@code batch == null}) and {@link #put}. */
  private int admit(int producer, Task task, long bytes, RecordBatch batch, boolean helper)
      throws InterruptedException {
    int seq = task.seq();
    boolean forBudget = batch == null;
    lock.lock();
    long waitStart = 0;
    try {
      if (batch != null) {
        budget.hold(producer, bytes); // decoded: its real size replaces the reservation
      }
      while (true) {
        if (state.stopped(seq)) {
          return STOPPED;
        }
        boolean handOff = seq == state.wantedSeq && queues.isEmpty(producer);
        if (forBudget) {
          bytes = budget.estimate(bytes);
        }
        if (forBudget && (handOff || budget.fits(bytes))) {
          budget.hold(producer, bytes);
          return ADMITTED;
        }
        if (!forBudget && queues.hasRoom(producer)) {
          if (budget.enqueued(producer, bytes)) {
            scheduler.signalBudgetWaiters(); // the first batch: the others may size theirs now
          }
          queues.add(producer, new Entry(seq, batch, bytes));
          if (state.consumerWaiting
              && seq == state.wantedSeq
              && (handOff || queues.batches(producer) >= wakeBatches)) {
            consumerCanGo.signal();
          }
          return helper && seq == state.wantedSeq ? YIELD : ADMITTED;
        }
        if (state.consumerWaiting) {
          consumerCanGo.signal(); // this queue may hold its next batch: don't linger on it
        }
        if (parking) {
          scheduler.park(producer, task, batch, bytes);
          return PARKED;
        }
        if (waitStart == 0) {
          waitStart = System.nanoTime();
        }
        scheduler.await(producer, forBudget);
      }
    } catch (InterruptedException e) {
      if (state.stopped(seq)) {
        return STOPPED;
      }
      throw e;
    } finally {
      if (waitStart != 0) {
        stats.producerWaited(System.nanoTime() - waitStart, task, batch, forBudget);
      }
      lock.unlock();
    }
  }

  /**
   * Marks task {@code seq} of {@code producer} as complete (its reservation is returned).
   *
   * @return whether it is the task the consumer waits for (a helper then yields)
   */
  boolean endTask(int producer, int seq) {
    lock.lock();
    try {
      budget.hold(producer, 0);
      queues.add(producer, new Entry(seq, null, 0));
      if (seq == state.wantedSeq) {
        consumerCanGo.signal();
        return true;
      }
      return false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Called by a producer's own slice after it closed its last reader (and reported any failure):
   * the end of the read waits for this, so that a failure to release a file is never lost.
   *
   * @return whether close() interrupted this slice (its thread then clears the flag)
   */
  boolean producerFinished(int producer) {
    lock.lock();
    try {
      budget.hold(producer, 0);
      boolean interrupted = scheduler.finished(producer);
      if (scheduler.active() == 0) {
        consumerCanGo.signal();
      }
      return interrupted;
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@code producer} is in a slice now (after close: one not yet back from I/O). */
  boolean running(int producer) {
    lock.lock();
    try {
      return scheduler.running(producer);
    } finally {
      lock.unlock();
    }
  }

  /** Submits a slice of {@code producer}, which {@link #yieldSlice} made {@code QUEUED}. */
  void submit(int producer) {
    slices.submit(producer);
  }

  /**
   * Records a failure of task {@code seq} (-1: of none); the earliest in read order wins. Nothing
   * is claimed after it and producers of later tasks stop; earlier tasks are still read. Ignored
   * after close.
   */
  void fail(ReadException error, int seq) {
    lock.lock();
    try {
      if (state.keepFailure(error, seq)) {
        consumerCanGo.signalAll();
        scheduler.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The consumer's next batch in order, or null at the end of all tasks ({@link Merge}). Waits
   * without spinning (in naps of at most {@link #LINGER_NANOS}); on an executor it runs a slice of
   * the producer it waits for when no thread does.
   *
   * @throws ReadException the first producer failure
   * @throws InterruptedIOException when interrupted while waiting (the interrupt flag stays set)
   */
  RecordBatch take() throws IOException {
    return merge.take();
  }

  /**
   * Stops everything: producers quit at their next step, the consumer throws. Running slices are
   * interrupted out of blocking I/O; producers not running (parked, queued, never started) are done
   * from here on and their states belong to the caller.
   *
   * @return the producers whose files the caller must release now
   */
  int[] close() {
    lock.lock();
    try {
      state.closed = true;
      queues.clear(); // drop batches now rather than when the reader is collected
      budget.clear();
      consumerCanGo.signalAll();
      scheduler.signalAll();
      return scheduler.closeAll();
    } finally {
      lock.unlock();
    }
  }
}
