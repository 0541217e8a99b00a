package dev.prefetch.parquet.internal.flat;

import static dev.prefetch.parquet.internal.page.PlainIntPages.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.IntVector;
import dev.prefetch.parquet.internal.page.ChunkPages;
import dev.prefetch.parquet.internal.page.PlainIntPages;
import dev.prefetch.spi.VectorArrayPool;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Row positions over the pages of a page-filtered read: pages carry their first row, the read left
 * out the pages between the row intervals, and the reader seeks across the gaps.
 */
class FlatColumnReaderSeekTest {

  private static final ColumnDescriptor COLUMN =
      MessageTypeParser.parseMessageType("message m { required int32 x; }").getColumns().get(0);

  /** Pages of rows 0-9 and 30-39 (rows 10-29 left out), each value equal to its row. */
  private static FlatColumnReader<?> reader() {
    VectorArrayPool arrays = VectorArrayPool.none();
    FlatColumnReader<?> reader =
        FlatColumnReader.of(InPlaceAdapter.ints(DataType.int32(), arrays), 0, arrays);
    reader.bind(
        new ChunkPages(
            COLUMN,
            PlainIntPages.reader(List.of(page(COLUMN, 0, 10, 0), page(COLUMN, 30, 10, 30))),
            null));
    return reader;
  }

  @Test
  void aSeekPastAGapDropsThePagesBeforeAndSkipsInsideTheNext() {
    FlatColumnReader<?> reader = reader();
    reader.seek(3);
    IntVector first = (IntVector) reader.read(7);
    reader.seek(34);
    IntVector second = (IntVector) reader.read(6);

    assertThat(first.values()).startsWith(3, 4, 5, 6, 7, 8, 9);
    assertThat(second.values()).startsWith(34, 35, 36, 37, 38, 39);
  }

  /** Moves that would leave the pages read or go back, and what each one's message names. */
  static Stream<Arguments> refusedMoves() {
    return Stream.of(
        refused("a read across a gap", 5, r -> r.read(10), "rows 10 to 29", "in no page read"),
        refused("a seek into a gap", 10, r -> r.seek(20), "row 20", "in no page read"),
        refused("a seek backwards", 6, r -> r.seek(2), "cannot go back from row 6 to 2"));
  }

  private static Arguments refused(
      String move, long start, Consumer<FlatColumnReader<?>> action, String... message) {
    return Arguments.of(move, start, action, message);
  }

  @ParameterizedTest(name = "{0} fails rather than return rows of another place")
  @MethodSource("refusedMoves")
  void aMoveOutsideThePagesReadFails(
      String move, long start, Consumer<FlatColumnReader<?>> action, String[] message) {
    FlatColumnReader<?> reader = reader();
    reader.seek(start);

    assertThatThrownBy(() -> action.accept(reader))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContainingAll(message);
  }

  @Test
  void aReadPastTheLastPageFails() {
    FlatColumnReader<?> reader = reader();
    reader.seek(35);

    assertThatThrownBy(() -> reader.read(6))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ended before row 40");
  }
}
