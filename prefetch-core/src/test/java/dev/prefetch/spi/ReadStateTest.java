package dev.prefetch.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A read's state holds one object per class, made once even when producers ask together. */
class ReadStateTest {

  @Test
  void eachClassGetsOneObjectForTheWholeRead() {
    ReadState state = new ReadState();
    AtomicInteger made = new AtomicInteger();

    StringBuilder first =
        state.shared(
            StringBuilder.class,
            () -> {
              made.incrementAndGet();
              return new StringBuilder("a");
            });
    StringBuilder second = state.shared(StringBuilder.class, StringBuilder::new);
    List<?> other = state.shared(ArrayList.class, ArrayList::new);

    assertThat(second).isSameAs(first);
    assertThat(made).hasValue(1);
    assertThat(other).isNotNull();
  }

  @Test
  void producersAskingTogetherShareTheOneObjectMade() throws InterruptedException {
    ReadState state = new ReadState();
    AtomicInteger made = new AtomicInteger();
    Object[] seen = new Object[4];
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < seen.length; i++) {
      int slot = i;
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                seen[slot] =
                    state.shared(
                        Object.class,
                        () -> {
                          made.incrementAndGet();
                          return new Object();
                        });
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(made).hasValue(1);
    assertThat(seen).containsOnly(seen[0]);
  }
}
