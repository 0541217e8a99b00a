package dev.prefetch.internal.runtime;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks after each test that no producer thread, range reader or plan outlived the reads that
 * ended ({@link SyntheticFormat#assertNothingLeaks()}). Use as
 * {@code @ExtendWith(NothingLeaks.class)}.
 */
final class NothingLeaks implements AfterEachCallback {

  @Override
  public void afterEach(ExtensionContext context) {
    SyntheticFormat.assertNothingLeaks();
  }
}
