package dev.prefetch.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * What a batch counts against the read's byte budget ({@link RecordBatch#sizeInBytes()}): every
 * array it holds at its length, nested vectors through their offsets, validity and children.
 */
class BatchSizeTest {

  @Test
  void aNestedBatchCountsItsOffsetsValidityAndEveryChildArray() {
    // list<struct<x: int32, y: int32>>: 3 lists of 0, 2 and 1 elements, the second list null-free
    IntVector x = new IntVector(DataType.int32(), 3, new int[8], new boolean[8]);
    IntVector y = new IntVector(DataType.int32(), 3, new int[5], null);
    DataType struct =
        DataType.struct(List.of(Field.of("x", DataType.int32()), Field.of("y", DataType.int32())));
    StructVector elements = new StructVector(struct, 3, List.of(x, y), new boolean[6]);
    ListVector lists =
        new ListVector(
            DataType.list(Field.of("element", struct)),
            3,
            new int[] {0, 0, 2, 3},
            elements,
            new boolean[4]);
    Schema schema = new Schema(List.of(Field.of("l", lists.type())));
    RecordBatch batch =
        new RecordBatch(
            DataFile.of(new Path("file:/nested.parquet")), 0, 3, schema, List.of(lists));

    long expected =
        4L * 4 // list offsets
            + 4 // list validity
            + 6 // struct validity
            + 4L * 8
            + 8 // x values and validity
            + 4L * 5; // y values
    assertThat(batch.sizeInBytes()).isEqualTo(expected);
  }
}
