package dev.prefetch.bench;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testkit.scan.ValueSums;
import dev.prefetch.testkit.storage.SimulatedFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a scan's producers spend their time: each producer thread's life cut into I/O waits,
 * decoding, waits for queue room or budget, planning and idle time, from a flight recording of one
 * scan, printed as a table and drawn as an SVG timeline (one row per producer).
 *
 * <p>Not JMH: it runs scans in this process ({@code --warmups} untimed, then one recorded) through
 * {@link Readers#open(List, ReadOptions, ReadContext)}, consumed by {@link ValueSums}. What counts
 * as what, on a producer thread ({@code prefetch-*}):
 *
 * <ul>
 *   <li><b>I/O</b>: a park on a future or a latch ({@code jdk.ThreadPark} on a {@code
 *       CompletableFuture} or {@code CountDownLatch}: a vectored read's range not yet arrived, the
 *       simulated store's first-byte wait or transfer), a local file read ({@code jdk.FileRead}), a
 *       sleep;
 *   <li><b>blocked</b>: {@code dev.prefetch.ProducerBlocked} (queue full, or no room in the
 *       budget);
 *   <li><b>plan</b>: {@code dev.prefetch.FilePlanned} on that thread, less its I/O;
 *   <li><b>decode</b>: {@code dev.prefetch.RangeRead}, less its I/O and blocked time (the range's
 *       decompression, decoding and the vectors it fills);
 *   <li><b>idle</b>: the rest of the scan's span (claiming, waiting for another producer's plan,
 *       the time after its last range).
 * </ul>
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.prefetch.bench.Timeline [--remote]
 * [--threads N] [--warmups N] [--svg OUT.svg] FILE...}.
 */
public final class Timeline {

  /** What a producer does in an interval. */
  enum Kind {
    IO("#d62728"),
    DECODE("#2ca02c"),
    BLOCKED("#ff7f0e"),
    PLAN("#9467bd");

    final String color;

    Kind(String color) {
      this.color = color;
    }
  }

  /** One interval of one thread, in nanoseconds since the scan began. */
  record Span(String thread, Kind kind, long start, long end) {
    long nanos() {
      return Math.max(0, end - start);
    }
  }

  /** A producer's totals, in nanoseconds. */
  record Totals(String thread, long io, long decode, long blocked, long plan, long idle) {}

  private Timeline() {}

  public static void main(String[] args) throws Exception {
    boolean remote = false;
    int threads = 8;
    int warmups = 4;
    Path svg = null;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--remote" -> remote = true;
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--warmups" -> warmups = Integer.parseInt(args[++i]);
        case "--svg" -> svg = Path.of(args[++i]);
        default -> files.add(Path.of(args[i]));
      }
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("usage: Timeline [--remote] [--threads N] FILE...");
    }
    Configuration conf = new Configuration();
    List<DataFile> data = new ArrayList<>();
    for (Path file : files) {
      data.add(
          DataFile.of(
              remote
                  ? SimulatedFileSystem.pathOf(file)
                  : new org.apache.hadoop.fs.Path(file.toUri())));
    }
    if (remote) {
      SimulatedFileSystem.configure(
          conf, BenchData.REMOTE_LATENCY_MS, BenchData.REMOTE_BANDWIDTH_MBPS);
    }
    ReadOptions options = ReadOptions.builder().parallelism(threads).build();
    try (ReadContext context = ReadContext.builder().configuration(conf).build()) {
      for (int i = 0; i < warmups; i++) {
        scan(data, options, context);
      }
      Path jfr = Files.createTempFile("timeline", ".jfr");
      long scanNanos;
      Instant begin;
      try (Recording recording = new Recording()) {
        for (String event :
            List.of(
                "dev.prefetch.RangeRead",
                "dev.prefetch.ProducerBlocked",
                "dev.prefetch.FilePlanned",
                "jdk.ThreadPark",
                "jdk.ThreadSleep",
                "jdk.FileRead")) {
          recording.enable(event).withThreshold(Duration.ZERO).withoutStackTrace();
        }
        recording.start();
        begin = Instant.now();
        long t0 = System.nanoTime();
        scan(data, options, context);
        scanNanos = System.nanoTime() - t0;
        recording.stop();
        recording.dump(jfr);
      }
      List<Span> spans = spans(jfr, begin, scanNanos);
      Files.delete(jfr);
      List<Totals> totals = totals(spans, scanNanos);
      System.out.println(table(totals, scanNanos, remote, threads, files.size()));
      if (svg != null) {
        Files.writeString(svg, svg(spans, totals, scanNanos, remote, threads));
        System.out.println("timeline: " + svg);
      }
    }
  }

  private static void scan(List<DataFile> data, ReadOptions options, ReadContext context)
      throws IOException {
    try (BatchReader reader = Readers.open(data, options, context)) {
      ValueSums sums = new ValueSums(reader.schema().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        sums.add(batch);
        batch.release();
      }
    }
  }

  /** The producer threads' intervals of the recorded scan, cut to the scan's span. */
  static List<Span> spans(Path jfr, Instant begin, long scanNanos) throws IOException {
    List<Span> spans = new ArrayList<>();
    for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
      RecordedThread thread = event.getThread();
      if (thread == null
          || thread.getJavaName() == null
          || !thread.getJavaName().startsWith("prefetch-")) {
        continue;
      }
      Kind kind = kind(event);
      if (kind == null) {
        continue;
      }
      long start = Duration.between(begin, event.getStartTime()).toNanos();
      long end = Duration.between(begin, event.getEndTime()).toNanos();
      start = Math.max(0, start);
      end = Math.min(scanNanos, end);
      if (end > start) {
        spans.add(new Span(thread.getJavaName(), kind, start, end));
      }
    }
    spans.sort(Comparator.comparingLong(Span::start));
    return spans;
  }

  private static Kind kind(RecordedEvent event) {
    String name = event.getEventType().getName();
    switch (name) {
      case "dev.prefetch.RangeRead":
        return Kind.DECODE;
      case "dev.prefetch.ProducerBlocked":
        return Kind.BLOCKED;
      case "dev.prefetch.FilePlanned":
        return Kind.PLAN;
      case "jdk.FileRead":
      case "jdk.ThreadSleep":
        return Kind.IO;
      case "jdk.ThreadPark":
        {
          Object parked = event.getValue("parkedClass");
          String blocker = parked == null ? "" : parked.toString();
          return blocker.contains("CompletableFuture") || blocker.contains("CountDownLatch")
              ? Kind.IO
              : null;
        }
      default:
        return null;
    }
  }

  /**
   * Each producer's totals: its I/O and blocked time as recorded, its planning and decoding less
   * the I/O and blocked time inside them, the rest idle.
   */
  static List<Totals> totals(List<Span> spans, long scanNanos) {
    Map<String, List<Span>> byThread = new TreeMap<>();
    for (Span span : spans) {
      byThread.computeIfAbsent(span.thread(), t -> new ArrayList<>()).add(span);
    }
    List<Totals> out = new ArrayList<>();
    for (Map.Entry<String, List<Span>> entry : byThread.entrySet()) {
      List<Span> own = entry.getValue();
      long io = covered(own, Kind.IO);
      long blocked = covered(own, Kind.BLOCKED);
      long ioInPlans = overlap(own, Kind.IO, Kind.PLAN);
      long plan = Math.max(0, covered(own, Kind.PLAN) - ioInPlans);
      long decode =
          Math.max(
              0,
              covered(own, Kind.DECODE)
                  - overlap(own, Kind.IO, Kind.DECODE)
                  - overlap(own, Kind.BLOCKED, Kind.DECODE));
      long idle = Math.max(0, scanNanos - io - blocked - plan - decode);
      out.add(new Totals(entry.getKey(), io, decode, blocked, plan, idle));
    }
    return out;
  }

  /** The time covered by {@code kind}'s spans, overlaps counted once. */
  private static long covered(List<Span> spans, Kind kind) {
    long total = 0;
    long end = -1;
    for (Span span : spans) {
      if (span.kind() != kind) {
        continue;
      }
      long from = Math.max(span.start(), end);
      if (span.end() > from) {
        total += span.end() - from;
        end = span.end();
      }
    }
    return total;
  }

  /** The time {@code inner}'s spans lie inside {@code outer}'s. */
  private static long overlap(List<Span> spans, Kind inner, Kind outer) {
    long total = 0;
    for (Span in : spans) {
      if (in.kind() != inner) {
        continue;
      }
      for (Span out : spans) {
        if (out.kind() == outer) {
          total += Math.max(0, Math.min(in.end(), out.end()) - Math.max(in.start(), out.start()));
        }
      }
    }
    return total;
  }

  static String table(List<Totals> totals, long scanNanos, boolean remote, int threads, int files) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "scan of %d file(s), %d producers, %s: %.3f s%n%n",
            files,
            threads,
            remote ? "remote model" : "local",
            scanNanos / 1e9));
    out.append("| producer | I/O s | decode s | blocked s | plan s | idle s |\n");
    out.append("|---|---|---|---|---|---|\n");
    long[] sum = new long[5];
    for (Totals t : totals) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
              t.thread(),
              t.io() / 1e9,
              t.decode() / 1e9,
              t.blocked() / 1e9,
              t.plan() / 1e9,
              t.idle() / 1e9));
      sum[0] += t.io();
      sum[1] += t.decode();
      sum[2] += t.blocked();
      sum[3] += t.plan();
      sum[4] += t.idle();
    }
    int n = Math.max(1, totals.size());
    out.append(
        String.format(
            Locale.ROOT,
            "| mean | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
            sum[0] / 1e9 / n,
            sum[1] / 1e9 / n,
            sum[2] / 1e9 / n,
            sum[3] / 1e9 / n,
            sum[4] / 1e9 / n));
    return out.toString();
  }

  /** One row per producer; I/O drawn over decoding, so a decode that waits shows its wait. */
  static String svg(
      List<Span> spans, List<Totals> totals, long scanNanos, boolean remote, int threads) {
    int width = 1000;
    int left = 170;
    int rowHeight = 18;
    int top = 40;
    int height = top + rowHeight * totals.size() + 40;
    double scale = (width - left - 20) / (double) scanNanos;
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"11\">%n",
            width,
            height));
    out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    out.append(
        String.format(
            Locale.ROOT,
            "<text x=\"10\" y=\"18\" font-size=\"13\">One scan, %d producers, %s: %.3f s"
                + " (green decode, red I/O wait, orange blocked on queue or budget, purple"
                + " planning)</text>%n",
            threads,
            remote ? "remote model" : "local",
            scanNanos / 1e9));
    for (int row = 0; row < totals.size(); row++) {
      String thread = totals.get(row).thread();
      int y = top + row * rowHeight;
      out.append(
          String.format(
              Locale.ROOT,
              "<text x=\"10\" y=\"%d\">%s</text>%n",
              y + 12,
              thread.length() > 26 ? "…" + thread.substring(thread.length() - 25) : thread));
      out.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eeeeee\"/>%n",
              left,
              y + 2,
              width - left - 20,
              rowHeight - 4));
      for (Kind kind : new Kind[] {Kind.PLAN, Kind.DECODE, Kind.BLOCKED, Kind.IO}) {
        for (Span span : spans) {
          if (span.thread().equals(thread) && span.kind() == kind) {
            out.append(
                String.format(
                    Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                    left + span.start() * scale,
                    y + 2,
                    Math.max(0.5, span.nanos() * scale),
                    rowHeight - 4,
                    kind.color));
          }
        }
      }
    }
    int axis = top + rowHeight * totals.size() + 16;
    for (int tick = 0; tick <= 10; tick++) {
      double x = left + (width - left - 20) * tick / 10.0;
      out.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.2f s</text>%n",
              x,
              axis,
              scanNanos / 1e9 * tick / 10));
    }
    out.append("</svg>\n");
    return out.toString();
  }
}
