package dev.prefetch.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

class ByteArrayPoolTest {

  private final ByteArrayPool buffers = new ByteArrayPool();

  @Test
  void anArrayGivenBackServesTheNextPageThatFits() {
    byte[] page = buffers.take(1000);
    buffers.give(page);

    assertThat(buffers.take(800)).isSameAs(page);
    assertThat(buffers.take(800)).isNotSameAs(page);
  }

  @Test
  void aNewArrayHasRoomForTheNextChunksSlightlyLongerPage() {
    byte[] page = buffers.take(16_000);
    assertThat(page).hasSize(17_000);
    buffers.give(page);

    assertThat(buffers.take(16_900)).isSameAs(page);
  }

  @Test
  void arraysThePoolDidNotLendAreIgnored() {
    byte[] foreign = new byte[1000];
    buffers.give(foreign);
    buffers.give(null);

    assertThat(buffers.take(1000)).isNotSameAs(foreign);
  }

  @Test
  void aPageThatIsNeverGivenBackIsNotKeptReachable() throws InterruptedException {
    // a page its reader never gives back (a range closed mid-page)
    WeakReference<byte[]> page = new WeakReference<>(buffers.take(1 << 20));

    for (int i = 0; i < 50 && page.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }

    assertThat(page.get()).isNull();
  }
}
