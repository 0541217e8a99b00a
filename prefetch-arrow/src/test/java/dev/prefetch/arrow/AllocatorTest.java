package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test that hands Arrow memory out: each test method gets a fresh allocator, which must hold
 * nothing once the method ends, and may pass a reader through the C Data stream interface.
 */
abstract class AllocatorTest {

  BufferAllocator allocator;

  @BeforeEach
  final void openAllocator() {
    allocator = new RootAllocator();
  }

  @AfterEach
  final void closeAllocator() {
    assertThat(allocator.getAllocatedMemory()).as("Arrow memory left by the test").isZero();
    allocator.close();
  }

  /**
   * After a reader's close: no Arrow memory, no open stream of the faulty filesystem, no thread.
   */
  final void assertNothingLeft() {
    assertThat(allocator.getAllocatedMemory()).as("Arrow memory").isZero();
    FaultInjectingFileSystem.assertAllStreamsClosed();
    assertThat(ReaderThreads.live()).as("producer threads").isEmpty();
  }

  /** Exports {@code reader} as a C Data stream, imports it back and hands the import on. */
  final void throughTheCStream(PrefetchArrowReader reader, ImportedCheck check) throws IOException {
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      reader.exportTo(stream);
      try (ArrowReader imported = Data.importArrayStream(allocator, stream)) {
        check.accept(imported);
      }
    }
  }

  /** What a test does with the imported stream. */
  interface ImportedCheck {
    void accept(ArrowReader imported) throws IOException;
  }

  /** Loads every batch of {@code reader} (or until it fails); the rows it loaded. */
  static long readToTheEnd(ArrowReader reader) throws IOException {
    long rows = 0;
    while (reader.loadNextBatch()) {
      rows += reader.getVectorSchemaRoot().getRowCount();
    }
    return rows;
  }
}
