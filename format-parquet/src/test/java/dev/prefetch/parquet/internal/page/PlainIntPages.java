package dev.prefetch.parquet.internal.page;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;

/** Hand-built PLAIN INT32 pages of one chunk, for the readers' tests of page boundaries. */
public final class PlainIntPages {

  private PlainIntPages() {}

  /**
   * A V1 page of {@code rows} consecutive values from {@code firstValue}, at row {@code
   * firstRowIndex} of a filtered read, or without a row index when it is negative.
   */
  public static DataPage page(
      ColumnDescriptor column, int firstValue, int rows, long firstRowIndex) {
    ByteBuffer values = ByteBuffer.allocate(4 * rows).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < rows; i++) {
      values.putInt(firstValue + i);
    }
    Statistics<?> stats = Statistics.createStats(column.getPrimitiveType());
    BytesInput bytes = BytesInput.from(values.array());
    return firstRowIndex < 0
        ? new DataPageV1(bytes, rows, 4 * rows, stats, Encoding.RLE, Encoding.RLE, Encoding.PLAIN)
        : new DataPageV1(
            bytes,
            rows,
            4 * rows,
            firstRowIndex,
            rows,
            stats,
            Encoding.RLE,
            Encoding.RLE,
            Encoding.PLAIN);
  }

  /** The pages of one chunk, without a dictionary, read in order. */
  public static PageReader reader(List<DataPage> pages) {
    ArrayDeque<DataPage> queue = new ArrayDeque<>(pages);
    long total = pages.stream().mapToLong(DataPage::getValueCount).sum();
    return new PageReader() {
      @Override
      public DictionaryPage readDictionaryPage() {
        return null;
      }

      @Override
      public long getTotalValueCount() {
        return total;
      }

      @Override
      public DataPage readPage() {
        return queue.poll();
      }
    };
  }
}
