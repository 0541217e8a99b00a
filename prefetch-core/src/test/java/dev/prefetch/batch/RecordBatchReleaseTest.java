package dev.prefetch.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordBatchReleaseTest {

  private static final Schema SCHEMA =
      new Schema(List.of(Field.of("id", DataType.int64()), Field.of("n", DataType.int32())));

  private static RecordBatch batch(BatchRecycler recycler) {
    List<ColumnVector> vectors =
        List.of(
            new LongVector(DataType.int64(), 2, new long[] {1, 2}, null),
            new IntVector(DataType.int32(), 2, new int[] {3, 4}, new boolean[] {false, true}));
    return new RecordBatch(
        DataFile.of(Path.of("/data/t.parquet")), 0, 2, SCHEMA, vectors, recycler);
  }

  @Test
  void releaseHandsTheVectorsToTheRecyclerInColumnOrderOnce() {
    List<List<ColumnVector>> recycled = new ArrayList<>();
    RecordBatch batch = batch(recycled::add);
    List<ColumnVector> vectors = batch.columns();

    batch.release();
    batch.release();

    assertThat(recycled).containsExactly(vectors);
    assertThat(batch.isReleased()).isTrue();
  }

  @Test
  void aReleasedBatchRefusesToHandOutItsVectors() {
    RecordBatch batch = batch(columns -> {});
    batch.release();

    assertThatThrownBy(batch::columns)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("t.parquet")
        .hasMessageContaining("released");
    assertThatThrownBy(() -> batch.column(0)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> batch.column("id")).isInstanceOf(IllegalStateException.class);
    assertThat(batch.rowCount()).isEqualTo(2);
    assertThat(batch.firstRow()).isZero();
  }

  @Test
  void aBatchWithoutARecyclerIsOnlyMarkedReleased() {
    RecordBatch batch =
        new RecordBatch(
            DataFile.of(Path.of("/data/t.parquet")), 0, 0, new Schema(List.of()), List.of());
    assertThat(batch.isReleased()).isFalse();

    batch.release();

    assertThat(batch.isReleased()).isTrue();
    assertThatThrownBy(batch::columns).isInstanceOf(IllegalStateException.class);
  }
}
