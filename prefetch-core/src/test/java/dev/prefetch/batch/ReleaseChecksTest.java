package dev.prefetch.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The release checks ({@link ColumnVector#CHECK_RELEASED_PROPERTY}) are read once when the vector
 * classes load, so the checked behaviour runs in a JVM of its own started with the property.
 */
class ReleaseChecksTest {

  @Test
  @Timeout(60)
  void withReleaseChecksOnReadingAVectorOfAReleasedBatchThrows() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-D" + ColumnVector.CHECK_RELEASED_PROPERTY + "=true",
                "-cp",
                System.getProperty("java.class.path"),
                ReadAfterRelease.class.getName())
            .redirectErrorStream(true)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(50, TimeUnit.SECONDS)).isTrue();
    assertThat(out)
        .contains("before release: 1 2 false")
        .contains("long vector: IllegalStateException")
        .contains("list elements: IllegalStateException")
        .contains("null mask: IllegalStateException")
        .contains("released dictionary ids: IllegalStateException")
        .contains("next batch through the shared dictionary: read MAIL");
    assertThat(process.exitValue()).as(out).isZero();
  }

  @Test
  void withoutReleaseChecksAVectorTakenBeforeTheReleaseStaysReadable() {
    if (ColumnVector.releaseChecksEnabled()) {
      return; // this JVM was started with the checks on: the other test covers them
    }
    RecordBatch batch = ReadAfterRelease.batch();
    LongVector ids = (LongVector) batch.column(0);
    batch.release();
    assertThat(ids.get(1)).isEqualTo(2);
    assertThatThrownBy(() -> batch.column(0)).isInstanceOf(IllegalStateException.class);
  }

  /** Run with the checks on: reads vectors before and after their batch's release. */
  static final class ReadAfterRelease {
    private static final DataType LIST_OF_INTS =
        DataType.list(Field.of("element", DataType.int32()));

    static RecordBatch batch() {
      LongVector ids = new LongVector(DataType.int64(), 3, new long[] {1, 2, 0}, null);
      IntVector n = new IntVector(DataType.int32(), 3, new int[] {1, 0, 0}, new boolean[3]);
      return new RecordBatch(
          DataFile.of(Path.of("/data/t.parquet")),
          0,
          3,
          new Schema(List.of(Field.of("id", DataType.int64()), Field.of("n", DataType.int32()))),
          List.of(ids, n));
    }

    public static void main(String[] args) throws IOException {
      RecordBatch batch = batch();
      LongVector ids = (LongVector) batch.column(0);
      IntVector n = (IntVector) batch.column(1);
      ListVector tags =
          new ListVector(
              LIST_OF_INTS,
              1,
              new int[] {0, 2},
              new IntVector(DataType.int32(), 2, new int[] {7, 8}, null),
              null);
      System.out.println(
          "before release: " + ids.get(0) + " " + ids.getObject(1) + " " + n.isNull(2));
      batch.release();
      report("long vector", () -> ids.get(0));
      report("null mask", n::nullMask);
      // Nested vectors are marked with their parent.
      RecordBatch nested =
          new RecordBatch(
              DataFile.of(Path.of("/data/t.parquet")),
              0,
              1,
              new Schema(List.of(Field.of("tags", LIST_OF_INTS))),
              List.of(tags));
      ColumnVector elements = tags.elements();
      nested.release();
      report("list elements", () -> elements.getObject(0));
      // A dictionary is shared by the batches of a chunk: releasing one leaves it to the next.
      BinaryVector dictionary =
          new BinaryVector(
              DataType.string(),
              2,
              "AIRMAIL".getBytes(StandardCharsets.UTF_8),
              new int[] {0, 3, 7},
              null);
      DictionaryVector released = new DictionaryVector(1, new int[] {0}, dictionary, null);
      DictionaryVector next = new DictionaryVector(1, new int[] {1}, dictionary, null);
      new RecordBatch(
              DataFile.of(Path.of("/data/t.parquet")),
              0,
              1,
              new Schema(List.of(Field.of("mode", DataType.string()))),
              List.of(released))
          .release();
      report("released dictionary ids", () -> released.id(0));
      report("next batch through the shared dictionary", () -> next.getString(0));
    }

    private static void report(String what, java.util.function.Supplier<?> read) {
      try {
        System.out.println(what + ": read " + read.get());
      } catch (IllegalStateException e) {
        System.out.println(what + ": IllegalStateException");
      }
    }
  }
}
