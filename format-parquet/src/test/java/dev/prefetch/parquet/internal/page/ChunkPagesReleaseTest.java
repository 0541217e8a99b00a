package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.spi.ByteArrayPool;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * Writers such as DuckDB write one page per column chunk: that page is the chunk's last, no next
 * page gives it back, so the reader gives it back when it leaves the chunk, and the next row
 * group's page decompresses into the same array.
 */
class ChunkPagesReleaseTest {

  private static final ColumnDescriptor COLUMN =
      new ColumnDescriptor(
          new String[] {"x"}, Types.required(PrimitiveTypeName.INT32).named("x"), 0, 0);

  private static final int ROWS = 1000;

  /** A chunk of one PLAIN page whose bytes were decompressed into an array of {@code pool}. */
  private static ChunkPages chunkIn(ByteArrayPool pool, byte[][] pageArray) {
    byte[] array = pool.take(4 * ROWS);
    ByteBuffer values = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < ROWS; i++) {
      values.putInt(i);
    }
    pageArray[0] = array;
    DataPageV1 page =
        new DataPageV1(
            BytesInput.from(array, 0, 4 * ROWS),
            ROWS,
            4 * ROWS,
            Statistics.createStats(COLUMN.getPrimitiveType()),
            Encoding.RLE,
            Encoding.RLE,
            Encoding.PLAIN);
    return new ChunkPages(COLUMN, PlainIntPages.reader(List.of(page)), pool);
  }

  @Test
  void theOnlyPageOfAChunkGoesBackToThePoolWhenTheReaderLeavesTheChunk() {
    ByteArrayPool pool = new ByteArrayPool();
    byte[][] pageArray = new byte[1][];
    ChunkPages chunk = chunkIn(pool, pageArray);
    int[] out = new int[ROWS];
    chunk.next().values().read(out, 0, ROWS);
    assertThat(out[ROWS - 1]).isEqualTo(ROWS - 1);

    chunk.release();

    assertThat(pool.take(4 * ROWS)).isSameAs(pageArray[0]);
  }

  @Test
  void theDictionaryPageGoesBackToThePoolOnceDecoded() {
    ByteArrayPool pool = new ByteArrayPool();
    byte[] dictionaryArray = pool.take(8);
    ByteBuffer.wrap(dictionaryArray).order(ByteOrder.LITTLE_ENDIAN).putInt(7).putInt(42);
    DictionaryPage dictionary =
        new DictionaryPage(BytesInput.from(dictionaryArray, 0, 8), 2, Encoding.PLAIN);
    // Bit width 1, then one RLE run of ROWS times id 1 (header: ROWS << 1 as a varint).
    byte[] ids = {1, (byte) (((ROWS << 1) & 0x7F) | 0x80), (byte) ((ROWS << 1) >>> 7), 1};
    DataPageV1 page =
        new DataPageV1(
            BytesInput.from(ids),
            ROWS,
            ids.length,
            Statistics.createStats(COLUMN.getPrimitiveType()),
            Encoding.RLE,
            Encoding.RLE,
            Encoding.RLE_DICTIONARY);
    ChunkPages chunk = new ChunkPages(COLUMN, new OneDictionaryChunk(dictionary, page), pool);

    int[] out = new int[ROWS];
    chunk.next().values().read(out, 0, ROWS);

    assertThat(out).containsOnly(42);
    assertThat(pool.take(8)).isSameAs(dictionaryArray);
  }

  /** A chunk of a dictionary page and one data page. */
  private record OneDictionaryChunk(DictionaryPage dictionary, DataPage page)
      implements PageReader {
    @Override
    public DictionaryPage readDictionaryPage() {
      return dictionary;
    }

    @Override
    public long getTotalValueCount() {
      return page.getValueCount();
    }

    @Override
    public DataPage readPage() {
      return page;
    }
  }

  @Test
  void aPageStillBeingReadIsNotLentAgain() {
    ByteArrayPool pool = new ByteArrayPool();
    byte[][] pageArray = new byte[1][];
    ChunkPages chunk = chunkIn(pool, pageArray);
    chunk.next();

    assertThat(pool.take(4 * ROWS)).isNotSameAs(pageArray[0]);
  }
}
