package dev.prefetch.internal.runtime;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.ReadException;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.internal.runtime.ProducerQueues.Entry;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * The consumer's side of the {@link Exchange}: the ordered merge of the queue heads, with its
 * waits, the resumption of parked producers as room frees, and the consumer's help on an executor.
 * Every method but {@link #take} is called with the exchange's lock held; the consumer is one
 * thread at a time.
 */
// The parts it drives (state, tasks, queues, budget, scheduler) share the exchange's one lock;
// Error Prone cannot see that their lock fields alias state.lock, nor that the resume predicate
// runs under it, so its check runs inside the parts and not here.
@SuppressWarnings("GuardedBy")
final class Merge {

  private final ExchangeState state;
  private final TaskTable tasks;
  private final ProducerQueues queues;
  private final Budget budget;
  private final Scheduler scheduler;
  private final ReaderStats stats;
  private final boolean parking;

  /** Free slots a producer parked on a full queue needs to resume: a burst, at least one. */
  private final int resumeRoom;

  private Slices slices;

  Merge(
      ExchangeState state,
      TaskTable tasks,
      ProducerQueues queues,
      Budget budget,
      Scheduler scheduler,
      ReaderStats stats,
      boolean parking) {
    this.state = state;
    this.tasks = tasks;
    this.queues = queues;
    this.budget = budget;
    this.scheduler = scheduler;
    this.stats = stats;
    this.parking = parking;
    this.resumeRoom = Math.max(1, Math.min(Exchange.WAKE_BATCHES, queues.capacity() / 2));
  }

  void attach(Slices slices) {
    this.slices = slices;
  }

  /** See {@link Exchange#take}. */
  RecordBatch take() throws IOException {
    long waitStart = 0;
    try {
      while (true) {
        int help = -1;
        state.lock.lock();
        try {
          while (true) {
            RecordBatch batch = poll();
            if (batch != null) {
              return batch;
            }
            if (tasks.allClaimed()
                && state.wantedSeq >= tasks.claimed()
                && scheduler.active() == 0) {
              return null; // only now can no producer fail any more (closing its last reader)
            }
            if (waitStart == 0) {
              waitStart = System.nanoTime();
            }
            int wanted = state.wantedSeq < tasks.claimed() ? tasks.owner(state.wantedSeq) : -1;
            if (parking && (help = scheduler.helpable(wanted, tasks.allClaimed())) >= 0) {
              if (Thread.interrupted()) {
                // The consumer's own interrupt must end this wait as an interrupt, not reach a
                // producer's I/O and fail the read (the catch below restores the flag).
                throw new InterruptedException();
              }
              scheduler.own(help);
              break;
            }
            if (scheduler.anyResumed()) {
              break; // submit the producers resumed before sleeping, then look again
            }
            state.consumerWaiting = true;
            try {
              state.consumerCanGo.awaitNanos(Exchange.LINGER_NANOS);
            } finally {
              state.consumerWaiting = false;
            }
          }
        } finally {
          int[] resumed = scheduler.drainResumed();
          state.lock.unlock();
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
   * The next batch of {@code wantedSeq} if its owner has queued one, moving past end markers; null
   * when the consumer must wait. Throws the failure once every batch before it was taken.
   */
  @GuardedBy("state.lock")
  private RecordBatch poll() throws ReadException {
    while (true) {
      if (state.closed) {
        throw new IllegalStateException("reader is closed");
      }
      int claimed = tasks.claimed();
      if (state.failure != null
          && state.wantedSeq >= Math.min(state.failureSeq, claimed)
          && (state.wantedSeq >= claimed || queues.isEmpty(tasks.owner(state.wantedSeq)))) {
        throw state.failure; // every batch before the failing one was returned
      }
      if (state.wantedSeq >= claimed) {
        return null;
      }
      int producer = tasks.owner(state.wantedSeq);
      Entry head = queues.poll(producer);
      if (head == null) {
        return null;
      }
      if (head.batch() == null) {
        state.wantedSeq++;
        if (parking) {
          scheduler.resumeWhere(this::roomFreed);
        } else if (state.wantedSeq < tasks.claimed()) {
          scheduler.signal(tasks.owner(state.wantedSeq)); // it may now hand off
        }
        continue;
      }
      budget.taken(head.countedBytes());
      if (parking) {
        scheduler.resumeWhere(this::roomFreed);
      } else {
        scheduler.signal(producer);
        scheduler.signalBudgetWaiters();
      }
      return head.batch();
    }
  }

  /** Whether a parked producer can go on: the room it waits for freed, or it may hand off. */
  @GuardedBy("state.lock")
  private boolean roomFreed(int producer, int seq, long bytes, boolean forBudget) {
    boolean handOff = seq == state.wantedSeq && queues.isEmpty(producer);
    return forBudget
        ? handOff || budget.fits(bytes)
        : queues.room(producer) >= resumeRoom || handOff;
  }
}
