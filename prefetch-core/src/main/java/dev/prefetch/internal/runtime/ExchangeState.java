package dev.prefetch.internal.runtime;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.ReadException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state the producers' side ({@link Exchange}) and the consumer's side ({@link Merge}) of the
 * exchange share: the one lock, the consumer's condition, the task the consumer reads, the failure
 * and close. Every field but the lock and condition is guarded by the lock.
 */
final class ExchangeState {

  final ReentrantLock lock = new ReentrantLock();

  /** The consumer waits here; producers signal it (see the bursts rule of {@link Exchange}). */
  final Condition consumerCanGo = lock.newCondition();

  /** The task the consumer reads now; tasks before it are consumed. */
  @GuardedBy("lock")
  int wantedSeq;

  /** The consumer is in {@code consumerCanGo.await}: producers decide whether to wake it. */
  @GuardedBy("lock")
  boolean consumerWaiting;

  @GuardedBy("lock")
  ReadException failure;

  /**
   * The task the failure belongs to ({@code Integer.MAX_VALUE}: none, it surfaces once every
   * claimed task is consumed). Tasks before it are still read; producers of later tasks stop.
   */
  @GuardedBy("lock")
  int failureSeq = Integer.MAX_VALUE;

  @GuardedBy("lock")
  boolean closed;

  /** Whether nothing more may be claimed: closed or failed. */
  @GuardedBy("lock")
  boolean stopped() {
    return closed || failure != null;
  }

  /** Whether a producer of task {@code seq} must stop: closed, or failed at an earlier task. */
  @GuardedBy("lock")
  boolean stopped(int seq) {
    return closed || (failure != null && seq > failureSeq);
  }

  /**
   * Keeps {@code error} as the read's failure when it belongs to an earlier task than the one kept
   * ({@code seq} -1: of none) and the exchange is open; returns whether it was kept. A producer
   * that failed at an earlier task never ends it, so a later failure must not be what the consumer
   * waits for.
   */
  @GuardedBy("lock")
  boolean keepFailure(ReadException error, int seq) {
    int at = seq < 0 ? Integer.MAX_VALUE : seq;
    if (closed || (failure != null && at >= failureSeq)) {
      return false;
    }
    failure = error;
    failureSeq = at;
    return true;
  }
}
