package dev.prefetch.internal.runtime;

import dev.prefetch.testing.ReaderThreads;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded polls for the runtime's concurrency tests, for states no latch can signal (a thread
 * parked inside the runtime): each gives up after {@value #BOUND_SECONDS} seconds with an {@link
 * AssertionError} saying what never happened.
 */
final class Waits {

  static final long BOUND_SECONDS = 10;

  private static final long POLL_MILLIS = 2;

  private Waits() {}

  /** Polls {@code done} until it holds; fails with {@code never}'s message at the bound. */
  static void until(BooleanSupplier done, Supplier<String> never) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(never.get());
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  static void awaitState(Thread thread, Thread.State state) throws InterruptedException {
    until(() -> thread.getState() == state, () -> thread.getName() + " never reached " + state);
  }

  /** Waits until at least {@code count} producer threads are in {@code state}. */
  static void awaitProducers(int count, Thread.State state) throws InterruptedException {
    until(
        () -> producersIn(state) >= count,
        () -> "fewer than " + count + " producers reached " + state + ": " + ReaderThreads.live());
  }

  private static int producersIn(Thread.State state) {
    int in = 0;
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith(ReaderThreads.PREFIX) && thread.getState() == state) {
        in++;
      }
    }
    return in;
  }
}
