package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testing.Checksum;
import dev.prefetch.testing.CountingFileSystem;
import dev.prefetch.testing.FaultInjectingFileSystem;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Off the local filesystem, a range's byte ranges with small gaps between them are fetched as one
 * request each: counted through Hadoop's raw local filesystem under the counting scheme, whose
 * vectored reads are one positioned read per request.
 */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(120)
class CoalescedRequestsTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          """
      message table {
        required int64 id;
        required binary category (STRING);
        optional double price;
        required int32 qty;
        optional binary name (STRING);
        required int32 day;
      }
      """);
  static final int ROWS = 120_000;

  @TempDir static Path dir;
  static Path file;

  @BeforeAll
  static void writeFile() throws IOException {
    file =
        ParquetTestFiles.write(
            dir.resolve("table.parquet"),
            SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .codec(CompressionCodecName.UNCOMPRESSED)
                .rowGroupBytes(64L << 20)
                .pageRowLimit(2000),
            CoalescedRequestsTest::fill);
  }

  static void fill(int i, Group g) {
    g.add("id", (long) i * 7919);
    g.add("category", "category-" + (i % 20));
    if (i % 9 != 0) {
      g.add("price", (i % 1000) * 0.25);
    }
    g.add("qty", i % 100);
    if (i % 5 != 0) {
      g.add("name", "name-" + i);
    }
    g.add("day", 18_000 + i % 365);
  }

  @AfterEach
  void forgetFaults() {
    FaultInjectingFileSystem.reset();
  }

  /**
   * What a scan read: its checksum, ranges, the positioned reads of its vectored reads (one per
   * request), the sequential reads of footer and page indexes, and every byte.
   */
  record Scan(String checksum, long ranges, long requests, long sequentialReads, long bytes) {}

  private static Scan scan(ReadOptions options) throws IOException {
    CountingFileSystem.reset(file);
    try (ReadContext context =
            ReadContext.builder().configuration(CountingFileSystem.configuration()).build();
        BatchReader reader =
            Readers.open(DataFile.of(CountingFileSystem.path(file)), options, context)) {
      Checksum checksum = new Checksum(reader.schema().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        checksum.add(batch);
      }
      assertThat(checksum.rows()).isEqualTo(ROWS);
      CountingFileSystem.Counts counts = CountingFileSystem.counts(file);
      return new Scan(
          checksum.value(),
          reader.metrics().rangesPlanned(),
          counts.positionedReads(),
          counts.readCalls(),
          counts.bytesRead());
    }
  }

  private static ReadOptions.Builder sliced(String gap) {
    return ReadOptions.builder()
        .minReadBytes(0)
        .parallelism(4)
        .property(ParquetOptions.COALESCE_GAP_BYTES, gap);
  }

  @Test
  void pageSlicesOfARowGroupReadTheirDictionariesAndPagesInFewerRequests() throws IOException {
    Scan apart = scan(sliced("0").build());
    Scan joined = scan(sliced("1m").build());

    assertThat(joined.checksum()).isEqualTo(apart.checksum());
    assertThat(joined.ranges()).isEqualTo(apart.ranges()).isGreaterThanOrEqualTo(4);
    // Each slice asks for up to two runs per column (its dictionary, its pages): 6 columns, 3
    // of them with dictionaries, 7.5 requests a slice apart, 3.5 joined.
    assertThat(apart.requests()).as("apart").isGreaterThanOrEqualTo(6 * apart.ranges());
    assertThat(joined.requests()).as("joined").isLessThanOrEqualTo(apart.requests() / 2);
    // The gaps read are at most the bytes wanted.
    assertThat(joined.bytes()).isLessThanOrEqualTo(2 * apart.bytes());
    // Each producer's first slice of the row group read the 6 offset indexes one by one; joined,
    // that is one read (the footer and the plan's own index reads stay as they were).
    assertThat(apart.sequentialReads() - joined.sequentialReads())
        .as("%s / %s", apart, joined)
        .isGreaterThanOrEqualTo(5);
  }

  @Test
  void aProjectionThatSkipsASmallColumnReadsTheRowGroupInOneRequest() throws IOException {
    ReadOptions.Builder options =
        ReadOptions.builder()
            .prefetchEnabled(false)
            .columns(List.of("id", "price", "qty", "name", "day")); // not category
    Scan apart = scan(options.property(ParquetOptions.COALESCE_GAP_BYTES, "0").build());
    Scan joined = scan(options.property(ParquetOptions.COALESCE_GAP_BYTES, "1m").build());

    assertThat(joined.checksum()).isEqualTo(apart.checksum());
    assertThat(apart.requests()).isEqualTo(2);
    assertThat(joined.requests()).isEqualTo(1);
  }

  @Test
  void aRequestCappedByTheMaximumStaysApart() throws IOException {
    ReadOptions.Builder options =
        ReadOptions.builder()
            .prefetchEnabled(false)
            .columns(List.of("id", "price", "qty", "name", "day"))
            .property(ParquetOptions.COALESCE_GAP_BYTES, "1m")
            .property(ParquetOptions.MAX_REQUEST_BYTES, "64k");
    assertThat(scan(options.build()).requests()).isEqualTo(2);
  }

  @Test
  void aFileThatShrankUnderAJoinedRequestFailsNamingTheFile() throws IOException {
    Configuration conf = FaultInjectingFileSystem.configuration();
    ReadOptions options =
        ReadOptions.builder()
            .prefetchEnabled(false)
            .columns(List.of("id", "price", "qty", "name", "day"))
            .build();
    long length = Files.size(file);
    try (ReadContext context = ReadContext.builder().configuration(conf).build();
        BatchReader reader =
            Readers.open(DataFile.of(FaultInjectingFileSystem.path(file)), options, context)) {
      FaultInjectingFileSystem.faults(file).truncateTo(length / 2); // after the plan
      Throwable thrown =
          catchThrowable(
              () -> {
                while (reader.next() != null) {
                  // the first range's request reaches past the new end
                }
              });
      assertThat(thrown)
          .isInstanceOf(ReadException.class)
          .hasMessageContaining(file.getFileName().toString())
          .hasRootCauseInstanceOf(EOFException.class);
    }
    FaultInjectingFileSystem.assertAllStreamsClosed();
  }
}
