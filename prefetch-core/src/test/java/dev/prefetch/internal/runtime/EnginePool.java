package dev.prefetch.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A cached pool of daemon threads standing in for an engine's shared executor, started before a
 * test class and stopped after it (its threads must end within 5 seconds). Register it as
 * {@code @RegisterExtension static final EnginePool POOL = new EnginePool("engine-name");}.
 */
final class EnginePool implements BeforeAllCallback, AfterAllCallback {

  private final String threadName;
  private volatile ExecutorService executor;

  /** A pool whose threads are all named {@code threadName}. */
  EnginePool(String threadName) {
    this.threadName = threadName;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    executor = Executors.newCachedThreadPool(daemon(threadName));
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    executor.shutdownNow();
    assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }

  /** A factory of daemon threads all named {@code name}. */
  static ThreadFactory daemon(String name) {
    return r -> {
      Thread thread = new Thread(r, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * A pool of one daemon thread named {@code name} and no queue, which runs a task it cannot take
   * on the submitting thread: an engine whose executor is busy.
   */
  static ThreadPoolExecutor oneThreadCallerRuns(String name) {
    return new ThreadPoolExecutor(
        1,
        1,
        0,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        daemon(name),
        new ThreadPoolExecutor.CallerRunsPolicy());
  }

  /** A context over this pool when {@code onPool}, else the default context (own threads). */
  ReadContext context(boolean onPool) {
    return onPool ? ReadContext.builder().executor(executor).build() : ReadContext.defaults();
  }
}
