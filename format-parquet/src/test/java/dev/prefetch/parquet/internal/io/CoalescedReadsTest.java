package dev.prefetch.parquet.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.testing.CountingFileSystem;
import dev.prefetch.testing.CountingLedger;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vectored read through a range reader's stream on the counting scheme: joined ranges are one
 * positioned read into one array of the range reader's allocator, each range a view of its bytes.
 */
class CoalescedReadsTest {

  @TempDir Path dir;
  private Path local;
  private byte[] content;

  @BeforeEach
  void writeFile() throws IOException {
    content = new byte[64 << 10];
    new Random(7).nextBytes(content);
    local = Files.write(dir.resolve("bytes.bin"), content);
    CountingFileSystem.reset(local);
  }

  private SeekableInputStream stream(ReadCoalescing coalescing) throws IOException {
    Configuration conf = CountingFileSystem.configuration();
    FileStatus status =
        CountingFileSystem.path(local)
            .getFileSystem(conf)
            .getFileStatus(CountingFileSystem.path(local));
    return new CountingInputFile(status, conf, new ScanCounters(), true, coalescing, 0).newStream();
  }

  private void assertHolds(ParquetFileRange range) throws Exception {
    ByteBuffer buffer = range.getDataReadFuture().get(10, TimeUnit.SECONDS);
    assertThat(buffer.remaining()).isEqualTo(range.getLength());
    byte[] got = new byte[range.getLength()];
    buffer.duplicate().get(got);
    int from = (int) range.getOffset();
    assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(content, from, from + got.length));
  }

  @Test
  void joinedRangesAreOneRequestIntoOneCountedArrayAndEachGetsItsOwnBytes() throws Exception {
    CountingLedger ledger = new CountingLedger(1 << 20);
    ChunkAllocator chunks =
        new ChunkAllocator(ledger, new ByteArrayPool(ledger.shareBytes(), ledger));
    List<ParquetFileRange> ranges =
        List.of(
            new ParquetFileRange(30_000, 4_000),
            new ParquetFileRange(1_000, 5_000),
            new ParquetFileRange(10_000, 8_000));
    try (SeekableInputStream in = stream(new ReadCoalescing(8_000, 1 << 20))) {
      in.readVectored(ranges, chunks);
      for (ParquetFileRange range : ranges) {
        assertHolds(range);
      }
    }
    // [1,000, 18,000) joined (gap 4,000), [30,000, 34,000) apart (gap 12,000 over the limit)
    assertThat(CountingFileSystem.counts(local).positionedReads()).isEqualTo(2);
    assertThat(CountingFileSystem.counts(local).bytesRead()).isEqualTo(17_000 + 4_000);
    // both arrays, gap included (a pool array may carry a sixteenth of headroom)
    long held = ledger.held();
    assertThat(held).isBetween(21_000L, 21_000L + 21_000L / 16 + 2);
    chunks.reclaim(); // the range reader, once the page store is closed: kept free, still held
    assertThat(ledger.held()).isEqualTo(held);
  }

  @Test
  void withCoalescingOffEveryRangeIsARequestOfItsOwn() throws Exception {
    List<ParquetFileRange> ranges =
        List.of(new ParquetFileRange(0, 1_000), new ParquetFileRange(1_500, 1_000));
    try (SeekableInputStream in = stream(ReadCoalescing.OFF)) {
      in.readVectored(ranges, new ChunkAllocator());
      for (ParquetFileRange range : ranges) {
        assertHolds(range);
      }
    }
    assertThat(CountingFileSystem.counts(local).positionedReads()).isEqualTo(2);
  }

  @Test
  void aRangePastTheEndOfTheFileFailsNamingItBeforeAnythingIsAllocated() throws IOException {
    CountingLedger ledger = new CountingLedger(1 << 20);
    List<ParquetFileRange> ranges =
        List.of(new ParquetFileRange(0, 1_000), new ParquetFileRange(60_000, 10_000));
    try (SeekableInputStream in = stream(new ReadCoalescing(1 << 20, 1 << 20))) {
      assertThatThrownBy(
              () ->
                  in.readVectored(
                      ranges,
                      new ChunkAllocator(ledger, new ByteArrayPool(ledger.shareBytes(), ledger))))
          .isInstanceOf(EOFException.class)
          .hasMessageContaining(local.getFileName().toString())
          .hasMessageContaining("outside the file of 65536 bytes");
    }
    assertThat(ledger.held()).isZero();
    assertThat(CountingFileSystem.counts(local).positionedReads()).isZero();
  }
}
