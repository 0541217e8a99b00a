package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.cli.internal.EventRecording;
import dev.prefetch.internal.jfr.ReadScope;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToLongFunction;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader's JFR events, recorded in this process and read back with {@link RecordingFile}: over
 * a scan they add up to the reader's metrics.
 */
@Timeout(120)
class JfrEventsTest extends InspectFilesTest {

  @TempDir static Path dir;

  @AfterEach
  void noScopeIsLeftOpen() {
    assertThat(ReadScope.anyOpen()).as("a read scope outlived its read").isFalse();
  }

  private static List<RecordedEvent> events(Path recording, String name, Path file)
      throws IOException {
    return RecordingFile.readAllEvents(recording).stream()
        .filter(e -> e.getEventType().getName().equals("dev.prefetch." + name))
        .filter(
            e ->
                file == null
                    || (e.hasField("file")
                        && e.getString("file") != null
                        && e.getString("file").endsWith(file.getFileName().toString())))
        .toList();
  }

  private static long sum(List<RecordedEvent> events, ToLongFunction<RecordedEvent> field) {
    return events.stream().mapToLong(field).sum();
  }

  private void scanRecordingMatchesItsJson(Path file) throws IOException {
    Path recording = dir.resolve(file.getFileName() + ".jfr");
    Cli.Result r =
        Cli.run(
            "scan",
            "--jfr",
            recording.toString(),
            "--json",
            "--threads",
            "2",
            "--cache-bytes",
            "16m",
            "--batch-size",
            "100",
            "--conf",
            "prefetch.min-read-bytes=0",
            "--conf",
            "prefetch.queue-capacity=1",
            file.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode scan = MAPPER.readTree(r.out());
    assertThat(scan.get("prefetch").get("enabled").booleanValue()).isTrue();

    List<RecordedEvent> planned = events(recording, "FilePlanned", file);
    assertThat(planned).hasSize(1);
    RecordedEvent plan = planned.get(0);
    assertThat(plan.getLong("ranges")).isEqualTo(scan.get("prefetch").get("ranges").longValue());
    assertThat(plan.getLong("footerBytes"))
        .isEqualTo(scan.get("footerBytesRead").longValue())
        .isPositive();
    assertThat(plan.getLong("footerReads")).isEqualTo(scan.get("footerReads").longValue());
    assertThat(plan.getBoolean("fromCache")).isFalse();

    List<RecordedEvent> ranges = events(recording, "RangeRead", file);
    assertThat(ranges).hasSize((int) scan.get("prefetch").get("ranges").longValue());
    assertThat(ranges).allSatisfy(e -> assertThat(e.getBoolean("completed")).isTrue());
    assertThat(plan.getLong("bytesRead") + sum(ranges, e -> e.getLong("bytesRead")))
        .isEqualTo(scan.get("bytesRead").longValue());
    assertThat(plan.getLong("requests") + sum(ranges, e -> e.getLong("requests")))
        .isEqualTo(scan.get("readRequests").longValue());
    assertThat(sum(ranges, e -> e.getLong("rowCount"))).isEqualTo(scan.get("rows").longValue());

    List<RecordedEvent> released = events(recording, "BatchReleased", file);
    assertThat(released).hasSize(scan.get("batches").intValue());
    assertThat(sum(released, e -> e.getLong("rowCount"))).isEqualTo(scan.get("rows").longValue());

    List<RecordedEvent> lookups = events(recording, "CacheLookup", file);
    assertThat(lookups.stream().filter(e -> e.getBoolean("hit")).count())
        .isEqualTo(scan.get("cache").get("hits").longValue());
    assertThat(lookups.stream().filter(e -> !e.getBoolean("hit")).count())
        .isEqualTo(scan.get("cache").get("misses").longValue())
        .isPositive();
  }

  @Test
  void scanJfrOfParquetRecordsEventsThatAddUpToTheScansMetrics() throws IOException {
    scanRecordingMatchesItsJson(files.scanParquet);
  }

  @Test
  void scanJfrOfOrcRecordsEventsThatAddUpToTheScansMetrics() throws IOException {
    scanRecordingMatchesItsJson(files.nestedOrc);
  }

  @Test
  void aSecondOpenIsPlannedFromTheCacheAndBlockedProducersSayWhy() throws IOException {
    Path recording = dir.resolve("cached.jfr");
    long batches = 0;
    ReadOptions options =
        ReadOptions.builder().parallelism(3).queueCapacity(1).batchSize(50).minReadBytes(0).build();
    try (EventRecording events = EventRecording.start(recording);
        ReadContext context =
            ReadContext.builder()
                .cache(MemoryCache.builder().maximumBytes(1 << 20).build())
                .build()) {
      for (int open = 0; open < 2; open++) {
        try (BatchReader reader = Readers.open(DataFile.of(files.scanParquet), options, context)) {
          for (RecordBatch batch; (batch = reader.next()) != null; ) {
            batches++;
            batch.release();
          }
          assertThat(reader.metrics().prefetch()).isTrue();
        }
      }
    }
    List<RecordedEvent> planned = events(recording, "FilePlanned", files.scanParquet);
    assertThat(planned).extracting(e -> e.getBoolean("fromCache")).containsExactly(false, true);
    assertThat(planned.get(1).getLong("footerBytes")).isZero();
    assertThat(planned.get(1).getLong("footerReads")).isZero();
    assertThat(events(recording, "BatchReleased", files.scanParquet)).hasSize((int) batches);
    List<RecordedEvent> blocked = events(recording, "ProducerBlocked", files.scanParquet);
    assertThat(blocked)
        .isNotEmpty()
        .allSatisfy(
            e -> {
              assertThat(e.getString("reason")).isIn("queue-full", "budget");
              assertThat(e.getString("range")).startsWith("rows ");
            });
  }

  @Test
  void eachReadersWaitEventsEqualItsWaitMetrics() throws IOException {
    Path recording = dir.resolve("one-reader.jfr");
    ReaderMetrics metrics;
    ReadOptions options =
        ReadOptions.builder().parallelism(2).queueCapacity(1).batchSize(64).minReadBytes(0).build();
    try (EventRecording events = EventRecording.start(recording)) {
      try (ReadContext context = ReadContext.builder().build();
          BatchReader reader = Readers.open(DataFile.of(files.nestedParquet), options, context)) {
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          batch.release();
        }
        metrics = reader.metrics();
      }
    }
    assertThat(metrics.prefetch()).isTrue();
    assertThat(
            sum(
                events(recording, "ProducerBlocked", files.nestedParquet),
                e -> e.getLong("waitNanos")))
        .isEqualTo(metrics.producerWaitNanos());
    assertThat(sum(events(recording, "ConsumerWaited", null), e -> e.getLong("waitNanos")))
        .isEqualTo(metrics.consumerWaitNanos());
    List<RecordedEvent> ranges = events(recording, "RangeRead", files.nestedParquet);
    List<RecordedEvent> planned = events(recording, "FilePlanned", files.nestedParquet);
    assertThat(sum(planned, e -> e.getLong("bytesRead")) + sum(ranges, e -> e.getLong("bytesRead")))
        .isEqualTo(metrics.bytesRead());
    assertThat(sum(planned, e -> e.getLong("footerBytes")))
        .isEqualTo(metrics.counter(ScanCounters.FOOTER_BYTES_READ));
  }

  @Test
  void twoSingleReadersTakenInTurnsOnOneThreadEachAddUpToTheirOwnBytes() throws IOException {
    Path recording = dir.resolve("turns.jfr");
    ReaderMetrics parquet;
    ReaderMetrics orc;
    ReadOptions single = ReadOptions.builder().prefetchEnabled(false).batchSize(200).build();
    try (EventRecording events = EventRecording.start(recording);
        ReadContext context = ReadContext.builder().build();
        BatchReader a = Readers.open(DataFile.of(files.scanParquet), single, context);
        BatchReader b = Readers.open(DataFile.of(files.scanOrc), single, context)) {
      boolean aDone = false;
      boolean bDone = false;
      while (!aDone || !bDone) { // a batch of each in turn: their ranges overlap on this thread
        RecordBatch batch;
        if (!aDone && !(aDone = (batch = a.next()) == null)) {
          batch.release();
        }
        if (!bDone && !(bDone = (batch = b.next()) == null)) {
          batch.release();
        }
      }
      parquet = a.metrics();
      orc = b.metrics();
    }
    for (var file : List.of(files.scanParquet, files.scanOrc)) {
      ReaderMetrics metrics = file == files.scanParquet ? parquet : orc;
      List<RecordedEvent> ranges = events(recording, "RangeRead", file);
      List<RecordedEvent> planned = events(recording, "FilePlanned", file);
      assertThat(ranges).hasSize((int) metrics.rangesPlanned());
      assertThat(
              sum(planned, e -> e.getLong("bytesRead")) + sum(ranges, e -> e.getLong("bytesRead")))
          .as(file.toString())
          .isEqualTo(metrics.bytesRead());
    }
  }

  @Test
  void theSingleReadersRangesAddUpToItsBytesToo() throws IOException {
    Path recording = dir.resolve("single.jfr");
    ReaderMetrics metrics;
    try (EventRecording events = EventRecording.start(recording)) {
      try (ReadContext context = ReadContext.builder().build();
          BatchReader reader =
              Readers.open(
                  List.of(DataFile.of(files.scanOrc), DataFile.of(files.nestedOrc)),
                  ReadOptions.builder().prefetchEnabled(false).build(),
                  context)) {
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          batch.release();
        }
        metrics = reader.metrics();
      }
    }
    assertThat(metrics.prefetch()).isFalse();
    List<RecordedEvent> ranges = events(recording, "RangeRead", null);
    List<RecordedEvent> planned = events(recording, "FilePlanned", null);
    assertThat(planned).hasSize(2);
    assertThat(ranges).hasSize((int) metrics.rangesPlanned());
    assertThat(sum(planned, e -> e.getLong("bytesRead")) + sum(ranges, e -> e.getLong("bytesRead")))
        .isEqualTo(metrics.bytesRead());
    assertThat(sum(planned, e -> e.getLong("requests")) + sum(ranges, e -> e.getLong("requests")))
        .isEqualTo(metrics.counter(ScanCounters.READ_REQUESTS));
    assertThat(events(recording, "ConsumerWaited", null)).isEmpty();
  }
}
