package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Batch layouts the formats may hand out, converted by hand-built batches. */
class BatchLayoutTest extends AllocatorTest {

  private static final DataFile FILE = DataFile.of(new Path("file:///layouts.parquet"));

  @Test
  void offsetsThatDoNotStartAtZeroAreRebasedOrKept() {
    byte[] data = "xxxabcdefgh".getBytes(StandardCharsets.UTF_8);
    // Strings "abc", null, "defgh" starting at byte 3; a list column whose offsets start at 2.
    BinaryVector strings =
        new BinaryVector(
            DataType.string(),
            3,
            data,
            new int[] {3, 6, 6, 11},
            new boolean[] {false, true, false});
    IntVector elements = new IntVector(DataType.int32(), 6, new int[] {9, 9, 1, 2, 3, 4}, null);
    ListVector lists =
        new ListVector(
            DataType.list(Field.of("element", DataType.int32())),
            3,
            new int[] {2, 4, 6, 6},
            elements,
            new boolean[] {false, false, true});
    Schema schema =
        new Schema(List.of(Field.of("s", DataType.string()), Field.of("l", lists.type())));
    RecordBatch batch = new RecordBatch(FILE, 0, 3, schema, List.<ColumnVector>of(strings, lists));
    try (VectorSchemaRoot root = ArrowBatches.toArrow(batch, allocator)) {
      ValueWalk.assertSameValues(batch, root, ArrowMapping.of(schema));
      assertThat(ValueWalk.actual(root.getVector("s"), 2)).isEqualTo("defgh");
      assertThat(ValueWalk.actual(root.getVector("l"), 1)).isEqualTo(List.of(3, 4));
      assertThat(root.getVector("l").getNullCount()).isEqualTo(1);
    }
  }

  @Test
  void aConverterRefillsItsRootBatchAfterBatch() {
    Schema schema = new Schema(List.of(Field.of("v", DataType.int64())));
    ArrowMapping mapping = ArrowMapping.of(schema);
    try (BatchConverter converter = ArrowBatches.converter(mapping, allocator)) {
      for (int n : new int[] {5, 4000, 0, 17}) {
        long[] values = new long[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
          values[i] = i * 31L - 7;
          nulls[i] = i % 5 == 3;
        }
        RecordBatch batch =
            new RecordBatch(
                FILE, 0, n, schema, List.of(new LongVector(DataType.int64(), n, values, nulls)));
        VectorSchemaRoot root = converter.convert(batch);
        assertThat(root).isSameAs(converter.root());
        ValueWalk.assertSameValues(batch, root, mapping);
      }
    }
  }

  @Test
  void theRootsBuffersAreWrittenAgainUnlessSomeoneElseHoldsThem() {
    Schema schema = new Schema(List.of(Field.of("v", DataType.int64())));
    try (BatchConverter converter = ArrowBatches.converter(ArrowMapping.of(schema), allocator)) {
      org.apache.arrow.vector.BigIntVector v =
          (org.apache.arrow.vector.BigIntVector)
              converter.convert(longs(schema, 100, 1)).getVector(0);
      long first = v.getDataBufferAddress();
      v =
          (org.apache.arrow.vector.BigIntVector)
              converter.convert(longs(schema, 100, 2)).getVector(0);
      assertThat(v.getDataBufferAddress()).isEqualTo(first);
      assertThat(v.get(99)).isEqualTo(2 * 99);

      org.apache.arrow.memory.ArrowBuf held = v.getDataBuffer();
      held.getReferenceManager().retain();
      v =
          (org.apache.arrow.vector.BigIntVector)
              converter.convert(longs(schema, 100, 3)).getVector(0);
      assertThat(v.getDataBufferAddress()).isNotEqualTo(first);
      assertThat(v.get(99)).isEqualTo(3 * 99);
      // Whoever still holds the previous batch's buffer reads the previous batch.
      assertThat(held.getLong(99 * 8L)).isEqualTo(2 * 99);
      held.getReferenceManager().release();
    }
  }

  private static RecordBatch longs(Schema schema, int n, long factor) {
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = factor * i;
    }
    return new RecordBatch(
        FILE, 0, n, schema, List.of(new LongVector(DataType.int64(), n, values, null)));
  }

  @Test
  void aBatchOfAnotherSchemaIsRefused() {
    Schema schema = new Schema(List.of(Field.of("v", DataType.int64())));
    Schema other = new Schema(List.of(Field.of("w", DataType.int64())));
    RecordBatch batch =
        new RecordBatch(
            FILE, 0, 1, other, List.of(new LongVector(DataType.int64(), 1, new long[] {1}, null)));
    try (BatchConverter converter = ArrowBatches.converter(ArrowMapping.of(schema), allocator)) {
      assertThatThrownBy(() -> converter.convert(batch))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("layouts.parquet");
    }
  }

  @Test
  void aDecimalWiderThanArrowsIsRefusedNamingTheColumn() {
    Schema schema = new Schema(List.of(Field.of("huge", DataType.decimal(80, 2))));
    assertThatThrownBy(() -> ArrowMapping.of(schema))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("huge")
        .hasMessageContaining("76");
  }
}
