package dev.prefetch.parquet.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PageOverrunTest {

  private static OutOfMemoryError thrownAt(String... classAndMethod) {
    StackTraceElement[] stack = new StackTraceElement[classAndMethod.length / 2];
    for (int i = 0; i < stack.length; i++) {
      stack[i] = new StackTraceElement(classAndMethod[2 * i], classAndMethod[2 * i + 1], null, 1);
    }
    OutOfMemoryError error = new OutOfMemoryError("Java heap space");
    error.setStackTrace(stack);
    return error;
  }

  @Test
  void theAllocationOfAChunksMissingTailIsRecognised() {
    assertThat(PageOverrun.causedBy(thrownAt(
        "java.nio.HeapByteBuffer", "<init>",
        "java.nio.ByteBuffer", "allocate",
        "org.apache.parquet.hadoop.ParquetFileReader$WorkaroundChunk", "readAsBytesInput",
        "org.apache.parquet.hadoop.ParquetFileReader$Chunk", "readAllPages"))).isTrue();
  }

  @Test
  void anyOtherOutOfMemoryErrorIsNot() {
    assertThat(PageOverrun.causedBy(thrownAt(
        "java.nio.HeapByteBuffer", "<init>",
        "java.nio.ByteBuffer", "allocate",
        "org.apache.parquet.hadoop.ParquetFileReader$ConsecutivePartList", "readAll"))).isFalse();
    assertThat(PageOverrun.causedBy(new OutOfMemoryError())).isFalse();
  }
}
