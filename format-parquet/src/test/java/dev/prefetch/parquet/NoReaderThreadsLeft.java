package dev.prefetch.parquet;

import dev.prefetch.testing.ReaderThreads;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Fails a test after which a reader's producer thread is still alive. */
final class NoReaderThreadsLeft implements AfterEachCallback {

  @Override
  public void afterEach(ExtensionContext context) {
    ReaderThreads.assertNoneAlive();
  }
}
