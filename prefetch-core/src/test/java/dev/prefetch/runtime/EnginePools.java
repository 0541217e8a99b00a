package dev.prefetch.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** A cached pool of daemon threads standing in for an engine's shared executor in tests. */
final class EnginePools {

  private EnginePools() {}

  /** A pool whose threads are all named {@code name}. */
  static ExecutorService start(String name) {
    return Executors.newCachedThreadPool(
        r -> {
          Thread thread = new Thread(r, name);
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Stops {@code pool} and checks that its threads end within 5 seconds. */
  static void stop(ExecutorService pool) throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }
}
