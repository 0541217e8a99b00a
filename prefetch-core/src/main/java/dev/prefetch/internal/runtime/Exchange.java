package dev.prefetch.internal.runtime;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.ReadException;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.internal.runtime.ProducerQueues.Entry;
import dev.prefetch.internal.runtime.RunStates.RunState;
import dev.prefetch.internal.runtime.TaskTable.Task;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The meeting point of P producers and one consumer, and the one place the runtime's protocol is
 * kept: this class owns the lock and every piece of state the protocol decides on. Below it are
 * plain data structures that know nothing of the lock and are touched only while it is held: the
 * {@link TaskTable} (which producer reads which task), the {@link ProducerQueues}, the {@link
 * Budget} and the {@link RunStates} (who owns each producer on an executor).
 *
 * <h2>Threads and ownership</h2>
 *
 * Producer {@code p} claims tasks (a file's read range, numbered by a global sequence {@code seq}
 * in file-then-row order) and appends their batches to its own queue; the consumer (the caller of
 * {@code BatchReader.next()}, one thread at a time) removes them. One lock, taken a few times per
 * batch (thousands of rows), keeps the protocol simple. The only state changed without it is the
 * formats' part of the budget, an atomic the range readers' ledgers add to from inside their reads
 * ({@link Budget}); a decision under the lock may see a report a moment late, and the next decision
 * sees it.
 *
 * <h2>Protocol</h2>
 *
 * <ul>
 *   <li><b>Dynamic assignment.</b> An idle producer claims the next unclaimed task ({@link
 *       #claim}), so a slow range delays only its own producer. When the claims reach a file not
 *       planned yet, the claimer plans it outside the lock ({@link FileSequence}). A producer works
 *       on its claims in increasing order, so each queue holds tasks in increasing order.
 *   <li><b>Ordered merge.</b> The consumer reads task {@code wantedSeq} from its owner's queue head
 *       until that task's end marker, then moves to {@code wantedSeq + 1} ({@link #take}). Batches
 *       therefore come out exactly as a single reader makes them.
 *   <li><b>Budget before decoding.</b> A producer decodes its next batch only after {@link
 *       #reserve} found room in the budget for a batch as large as the largest so far: queued
 *       batches, every producer's reservation or decoded batch, and what the range readers report
 *       through their ledgers all count. Before the first batch is queued, a producer may start
 *       only into an empty budget. Once decoded, the batch's real size replaces the reservation
 *       until it is queued; queued, it counts until the consumer takes it.
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
 * <h2>Producers on an executor</h2>
 *
 * With the reader's own threads ({@code parking == false}) a producer owns its thread for its whole
 * life and waits for room on its own condition. On the context's executor ({@code parking == true})
 * a producer never holds a thread while it waits: it runs in slices, and its {@link RunState} names
 * the one owner of its state (its range reader, task and held batch):
 *
 * <ul>
 *   <li>{@code QUEUED}: a slice is due. Whoever moves a producer to {@code QUEUED} submits it after
 *       releasing the lock. The first thread to begin a slice while it is {@code QUEUED} (an
 *       executor thread, or the consumer) makes it {@code RUNNING}; a duplicate submission finds it
 *       not {@code QUEUED} and returns.
 *   <li>{@code RUNNING}: one thread runs the slice and owns the state.
 *   <li>{@code PARKED}: it found no room (for its next batch in the budget, or for its decoded
 *       batch in its queue). In the same critical section it keeps what it holds, becomes {@code
 *       PARKED} and gives its state to the exchange; its thread returns to the executor. Only the
 *       consumer moves it back to {@code QUEUED}, under the lock, once the room it waits for frees:
 *       a burst of {@code min(4, capacity / 2)} free slots (at least one), room in the budget, or a
 *       hand-off. Parking and every resume decision happen under the one lock, so no wake-up is
 *       lost.
 *   <li>{@code DONE}: it ended (nothing to claim, failure, or stopped) and released its files.
 * </ul>
 *
 * <b>The consumer helps.</b> When the consumer would wait and the producer it waits on (or, with
 * nothing claimed yet, any producer) is {@code QUEUED}, it runs a slice of it on its own thread,
 * which ends ({@link Admission#YIELD}) as soon as it has queued a batch the consumer can take. So
 * an executor with no free thread (a 1-thread pool busy with another reader, a fork-join pool whose
 * only worker is the consumer, a caller-runs pool) delays a read but never deadlocks it: a slice
 * never waits for the consumer, and the consumer never waits for a producer nobody runs.
 *
 * <h2>Waking the consumer in bursts</h2>
 *
 * A waiting consumer is woken when its producer has {@code wakeBatches} batches queued, ends the
 * task, hands a batch off or is about to wait (or park), or on failure and close: a wake-up per
 * batch cost a tenth of the decoding on a virtual machine. It naps {@link #LINGER_NANOS} at most.
 *
 * <h2>End, failure, close</h2>
 *
 * {@link #take} returns null once every task is consumed and every producer that started has closed
 * its last reader: a reader that fails to close after the last batch still fails the read. Every
 * state change that could unblock a waiter signals (or resumes) that waiter: a take signals the
 * producer whose queue it shortened and the producers waiting for budget; moving to the next task
 * signals that task's owner (it may hand off); failure and close signal everyone. {@link #close()}
 * interrupts every running slice and takes every parked or queued producer's state for the caller.
 * A failure of task {@code F} ({@link #fail}) stops all claims and the producers of later tasks;
 * producers of earlier tasks finish them, so the consumer gets every batch before the failing one,
 * then the failure. Of several failures the earliest in task order is kept.
 *
 * <h2>Invariants</h2>
 *
 * For every queue, the entries are in increasing {@code seq}, and every entry's {@code seq} is
 * {@code >= wantedSeq}; so the head of the queue of {@code wantedSeq}'s owner, if any, belongs to
 * {@code wantedSeq}. A change must keep it, or the merge reorders rows. A producer's state is
 * touched only by the one owner its run state names. A producer decodes only with a reservation
 * granted under the lock. {@code ExchangeInterleavingsTest} explores these under the lock's
 * interleavings.
 */
final class Exchange {

  /** What a producer does after {@link #reserve} or {@link #put}. */
  enum Admission {
    /** Go on. */
    ADMITTED,
    /**
     * No room: the producer is parked and keeps what it holds; its slice must return now without
     * touching its state again.
     */
    PARKED,
    /** Closed, or failed at an earlier task: the producer must quit. */
    STOPPED,
    /** Admitted, and the consumer whose thread runs this slice can now take it: the slice ends. */
    YIELD
  }

  /** Batches a waiting consumer lets its producer queue before it is woken (see the class doc). */
  static final int WAKE_BATCHES = 4;

  /** The longest a waiting consumer sleeps before it looks for queued batches itself. */
  static final long LINGER_NANOS = 10_000_000L;

  private final TaskSource files;
  private final ReaderStats stats;

  /** True when producers run on an executor: they park instead of waiting. */
  private final boolean parking;

  /** {@link #WAKE_BATCHES}, or fewer when a queue holds fewer, so that a full queue wakes. */
  private final int wakeBatches;

  /** Free slots a producer parked on a full queue needs to resume: a burst, at least one. */
  private final int resumeRoom;

  private final ReentrantLock lock = new ReentrantLock();

  /** The consumer waits here; producers signal it (see the bursts rule). */
  private final Condition consumerCanGo = lock.newCondition();

  /** One condition per own-thread producer, so a take wakes only the producer it made room for. */
  private final Condition[] canGo;

  @GuardedBy("lock")
  private final TaskTable tasks;

  @GuardedBy("lock")
  private final ProducerQueues queues;

  @GuardedBy("lock")
  private final Budget budget;

  @GuardedBy("lock")
  private final RunStates runs;

  /** Of an own-thread producer in {@code canGo[p].await}: whether it waits for the budget. */
  @GuardedBy("lock")
  private final boolean[] waitingForBudget;

  /** The task the consumer reads now; tasks before it are consumed. */
  @GuardedBy("lock")
  private int wantedSeq;

  /** The consumer is in {@code consumerCanGo.await}: producers decide whether to wake it. */
  @GuardedBy("lock")
  private boolean consumerWaiting;

  @GuardedBy("lock")
  private ReadException failure;

  /**
   * The task the failure belongs to ({@code Integer.MAX_VALUE}: none, it surfaces once every
   * claimed task is consumed). Tasks before it are still read; producers of later tasks stop.
   */
  @GuardedBy("lock")
  private int failureSeq = Integer.MAX_VALUE;

  @GuardedBy("lock")
  private boolean closed;

  /** Who runs slices: set once by {@link #attach}, before any producer starts. */
  private Slices slices;

  Exchange(
      TaskSource files,
      int producers,
      int queueCapacity,
      long maxBufferedBytes,
      ReaderStats stats,
      boolean parking) {
    this.files = files;
    this.stats = stats;
    this.parking = parking;
    this.wakeBatches = Math.min(WAKE_BATCHES, queueCapacity);
    this.resumeRoom = Math.max(1, Math.min(WAKE_BATCHES, queueCapacity / 2));
    this.canGo = new Condition[producers];
    for (int i = 0; i < producers; i++) {
      canGo[i] = lock.newCondition();
    }
    this.tasks = new TaskTable(files);
    this.queues = new ProducerQueues(producers, queueCapacity);
    this.budget = new Budget(maxBufferedBytes, producers, stats);
    this.runs = new RunStates(producers);
    this.waitingForBudget = new boolean[producers];
  }

  /** Sets who runs slices; called once, before any producer is started. */
  void attach(Slices slices) {
    this.slices = slices;
  }

  /** A ledger for a range reader that a producer opens, counted in the budget until closed. */
  ReaderLedger newLedger() {
    lock.lock();
    try {
      return budget.newLedger();
    } finally {
      lock.unlock();
    }
  }

  /** A thread is about to run a slice of {@code producer}: true when it now owns it. */
  boolean beginSlice(int producer) {
    lock.lock();
    try {
      if (!runs.is(producer, RunState.QUEUED)) {
        return false;
      }
      runs.own(producer);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends a helper's slice after {@link Admission#YIELD}: the producer becomes {@code QUEUED} again
   * (the caller then submits it). Returns false when the exchange is closed: the caller then
   * finishes the producer itself.
   */
  boolean yieldSlice(int producer) {
    lock.lock();
    try {
      if (closed) {
        return false; // close may have passed this producer by: it finishes on this thread
      }
      runs.requeue(producer);
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
        if (closed || failure != null) {
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
   * Reserves room in the budget for the next batch of {@code task}, whose producer's last batch
   * took {@code lastBatchBytes}; the producer decodes only after this returned {@link
   * Admission#ADMITTED}. Waits (own threads) or parks ({@link Admission#PARKED}: resumed, the
   * producer reserves again).
   */
  Admission reserve(int producer, Task task, long lastBatchBytes) throws InterruptedException {
    int seq = task.seq();
    long waitStart = 0;
    lock.lock();
    try {
      while (true) {
        if (stoppedAt(seq)) {
          return Admission.STOPPED;
        }
        long bytes = budget.estimate(lastBatchBytes);
        if (mayHandOff(producer, seq) || budget.fits(bytes)) {
          budget.hold(producer, bytes);
          return Admission.ADMITTED;
        }
        if (consumerWaiting) {
          consumerCanGo.signal(); // this queue may hold its next batch: don't linger on it
        }
        if (parking) {
          park(producer, task, null, bytes, true);
          return Admission.PARKED;
        }
        if (waitStart == 0) {
          waitStart = System.nanoTime();
        }
        awaitRoom(producer, true);
      }
    } catch (InterruptedException e) {
      if (stoppedAt(seq)) {
        return Admission.STOPPED;
      }
      throw e;
    } finally {
      if (waitStart != 0) {
        stats.producerWaited(System.nanoTime() - waitStart, task, null, true);
      }
      lock.unlock();
    }
  }

  /**
   * Appends the decoded {@code batch} of {@code task} to {@code producer}'s queue, waiting (own
   * threads) or parking ({@link Admission#PARKED}: the caller keeps the batch and returns from its
   * slice without touching its state again) while the queue is full.
   *
   * @param helper whether the slice runs on the consumer's thread (it yields once the consumer can
   *     take this batch)
   */
  Admission put(int producer, Task task, RecordBatch batch, boolean helper)
      throws InterruptedException {
    int seq = task.seq();
    long bytes = batch.sizeInBytes();
    long waitStart = 0;
    lock.lock();
    try {
      budget.hold(producer, bytes); // decoded: its real size replaces the reservation
      while (true) {
        if (stoppedAt(seq)) {
          return Admission.STOPPED;
        }
        boolean handOff = mayHandOff(producer, seq);
        if (queues.hasRoom(producer)) {
          if (budget.enqueued(producer, bytes)) {
            signalBudgetWaiters(); // the first batch: the others may size theirs now
          }
          queues.add(producer, new Entry(seq, batch, bytes));
          if (consumerWaiting
              && seq == wantedSeq
              && (handOff || queues.batches(producer) >= wakeBatches)) {
            consumerCanGo.signal();
          }
          return helper && seq == wantedSeq ? Admission.YIELD : Admission.ADMITTED;
        }
        if (consumerWaiting) {
          consumerCanGo.signal(); // this queue may hold its next batch: don't linger on it
        }
        if (parking) {
          park(producer, task, batch, bytes, false);
          return Admission.PARKED;
        }
        if (waitStart == 0) {
          waitStart = System.nanoTime();
        }
        awaitRoom(producer, false);
      }
    } catch (InterruptedException e) {
      if (stoppedAt(seq)) {
        return Admission.STOPPED;
      }
      throw e;
    } finally {
      if (waitStart != 0) {
        stats.producerWaited(System.nanoTime() - waitStart, task, batch, false);
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
   * Called by a producer's own slice after it closed its last reader (and reported any failure):
   * the end of the read waits for this, so that a failure to release a file is never lost.
   *
   * @return whether close() interrupted this slice (its thread then clears the flag)
   */
  boolean producerFinished(int producer) {
    lock.lock();
    try {
      budget.hold(producer, 0);
      boolean interrupted = runs.finished(producer);
      if (runs.active() == 0) {
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
      return runs.is(producer, RunState.RUNNING);
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
   * after close. A producer that failed at an earlier task never ends it, so a later failure must
   * not be what the consumer waits for.
   */
  void fail(ReadException error, int seq) {
    lock.lock();
    try {
      int at = seq < 0 ? Integer.MAX_VALUE : seq;
      if (closed || (failure != null && at >= failureSeq)) {
        return;
      }
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
   * naps of at most {@link #LINGER_NANOS}); on an executor it runs a slice of the producer it waits
   * for when no thread does.
   *
   * @throws ReadException the first producer failure
   * @throws InterruptedIOException when interrupted while waiting (the interrupt flag stays set)
   */
  RecordBatch take() throws IOException {
    long waitStart = 0;
    try {
      while (true) {
        int help = -1;
        int[] resumed = null;
        lock.lock();
        try {
          try {
            while (true) {
              RecordBatch batch = poll();
              if (batch != null) {
                return batch;
              }
              if (tasks.allClaimed() && wantedSeq >= tasks.claimed() && runs.active() == 0) {
                return null; // only now can no producer fail any more (closing its last reader)
              }
              if (waitStart == 0) {
                waitStart = System.nanoTime();
              }
              int wanted = wantedSeq < tasks.claimed() ? tasks.owner(wantedSeq) : -1;
              if (parking && (help = runs.helpable(wanted, tasks.allClaimed())) >= 0) {
                if (Thread.interrupted()) {
                  // The consumer's own interrupt must end this wait as an interrupt, not reach a
                  // producer's I/O and fail the read (the catch below restores the flag).
                  throw new InterruptedException();
                }
                runs.own(help);
                break;
              }
              if (runs.anyResumed()) {
                break; // submit the producers resumed before sleeping, then look again
              }
              consumerWaiting = true;
              try {
                consumerCanGo.awaitNanos(LINGER_NANOS);
              } finally {
                consumerWaiting = false;
              }
            }
          } finally {
            resumed = runs.drainResumed();
          }
        } finally {
          lock.unlock();
          if (resumed != null) {
            // Also when the take throws: a resumed producer nobody submits would never run.
            for (int producer : resumed) {
              slices.submit(producer);
            }
          }
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
   * Stops everything: producers quit at their next step, the consumer throws. Running slices are
   * interrupted out of blocking I/O; producers not running (parked, queued, never started) are done
   * from here on and their states belong to the caller.
   *
   * @return the producers whose files the caller must release now
   */
  int[] close() {
    lock.lock();
    try {
      closed = true;
      queues.clear(); // drop batches now rather than when the reader is collected
      budget.clear();
      consumerCanGo.signalAll();
      signalAllProducers();
      return runs.closeAll();
    } finally {
      lock.unlock();
    }
  }

  // ---- under the lock

  /**
   * The next batch of {@code wantedSeq} if its owner has queued one, moving past end markers; null
   * when the consumer must wait. Throws the failure once every batch before it was taken.
   */
  @GuardedBy("lock")
  private RecordBatch poll() throws ReadException {
    while (true) {
      if (closed) {
        throw new IllegalStateException("reader is closed");
      }
      int claimed = tasks.claimed();
      if (failure != null
          && wantedSeq >= Math.min(failureSeq, claimed)
          && (wantedSeq >= claimed || queues.isEmpty(tasks.owner(wantedSeq)))) {
        throw failure; // every batch before the failing one was returned
      }
      if (wantedSeq >= claimed) {
        return null;
      }
      int producer = tasks.owner(wantedSeq);
      Entry head = queues.poll(producer);
      if (head == null) {
        return null;
      }
      if (head.batch() == null) {
        wantedSeq++;
        if (parking) {
          resumeParked();
        } else if (wantedSeq < tasks.claimed()) {
          canGo[tasks.owner(wantedSeq)].signal(); // it may now hand off
        }
        continue;
      }
      budget.taken(head.countedBytes());
      if (parking) {
        resumeParked();
      } else {
        canGo[producer].signal();
        signalBudgetWaiters();
      }
      return head.batch();
    }
  }

  /** Whether a producer of task {@code seq} must stop: closed, or failed at an earlier task. */
  @GuardedBy("lock")
  private boolean stoppedAt(int seq) {
    return closed || (failure != null && seq > failureSeq);
  }

  /** The hand-off rule: the owner of the wanted task whose queue is empty may always go on. */
  @GuardedBy("lock")
  private boolean mayHandOff(int producer, int seq) {
    return seq == wantedSeq && queues.isEmpty(producer);
  }

  @GuardedBy("lock")
  private void park(int producer, Task task, RecordBatch batch, long bytes, boolean forBudget) {
    runs.park(producer, task, batch, bytes, forBudget);
    stats.producerParks.incrementAndGet();
  }

  /** Resumes every parked producer whose room has freed (the consumer submits them). */
  @GuardedBy("lock")
  private void resumeParked() {
    if (runs.parkedCount() == 0) {
      return;
    }
    for (int p = 0; p < runs.producers(); p++) {
      if (runs.is(p, RunState.PARKED) && roomFreed(p)) {
        stats.producerWaited(
            System.nanoTime() - runs.parkedSince(p),
            runs.parkedTask(p),
            runs.parkedBatch(p),
            runs.parkedForBudget(p));
        runs.resume(p);
      }
    }
  }

  /** Whether parked {@code producer} can go on: the room it waits for freed, or it may hand off. */
  @GuardedBy("lock")
  private boolean roomFreed(int producer) {
    boolean handOff = mayHandOff(producer, runs.parkedTask(producer).seq());
    return runs.parkedForBudget(producer)
        ? handOff || budget.fits(runs.parkedBytes(producer))
        : queues.room(producer) >= resumeRoom || handOff;
  }

  /** An own-thread producer waits for room; {@code forBudget}: for the budget, not its queue. */
  @GuardedBy("lock")
  private void awaitRoom(int producer, boolean forBudget) throws InterruptedException {
    waitingForBudget[producer] = forBudget;
    try {
      canGo[producer].await();
    } finally {
      waitingForBudget[producer] = false;
    }
  }

  /** Wakes the own-thread producers that wait for the budget. */
  @GuardedBy("lock")
  private void signalBudgetWaiters() {
    for (int p = 0; p < waitingForBudget.length; p++) {
      if (waitingForBudget[p]) {
        canGo[p].signal();
      }
    }
  }

  @GuardedBy("lock")
  private void signalAllProducers() {
    for (Condition condition : canGo) {
      condition.signalAll();
    }
  }
}
