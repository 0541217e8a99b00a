package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.ObjIntConsumer;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Structs, lists, maps and the legacy list layouts, nulls at every level, equal to parquet-hadoop.
 */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(120)
class NestedParityTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          """
      message nested {
        required int64 id;
        optional group s {
          optional int32 a;
          required binary b (STRING);
          optional group inner {
            optional double x;
          }
        }
        optional group l (LIST) {
          repeated group list {
            optional int32 element;
          }
        }
        optional group ls (LIST) {
          repeated group list {
            optional group element {
              optional binary name (STRING);
              optional group tags (LIST) {
                repeated group list {
                  required int32 element;
                }
              }
            }
          }
        }
        optional group m (MAP) {
          repeated group key_value {
            required binary key (STRING);
            optional int64 value;
          }
        }
        optional group mm (MAP) {
          repeated group key_value {
            required int32 key;
            optional group value (LIST) {
              repeated group list {
                optional binary element (STRING);
              }
            }
          }
        }
        optional group legacy2 (LIST) {
          repeated int32 array;
        }
        optional group legacyArr (LIST) {
          repeated group array {
            optional binary str (STRING);
          }
        }
        optional group legacyTuple (LIST) {
          repeated group legacyTuple_tuple {
            required int32 x;
          }
        }
        optional group legacyMulti (LIST) {
          repeated group item {
            required int32 a;
            optional int32 b;
          }
        }
        repeated int32 rep;
        repeated group rg {
          required int32 k;
          optional binary v (STRING);
        }
        optional group mkv (MAP_KEY_VALUE) {
          repeated group map {
            required binary key (STRING);
            required int32 value;
          }
        }
        required group req {
          required int32 r1;
          optional int32 r2;
        }
      }
      """);

  static final int ROWS = 1500;

  @TempDir static Path dir;
  static Path file;

  @BeforeAll
  static void writeFile() throws IOException {
    file = write("nested.parquet", ParquetTestFiles.WriteSpec.defaults().rowGroupBytes(48 << 10));
  }

  static Path write(String name, ParquetTestFiles.WriteSpec spec) throws IOException {
    return ParquetTestFiles.write(dir.resolve(name), SCHEMA, ROWS, spec, NestedParityTest::fill);
  }

  /** A shape per row: null, empty and filled containers, null elements, at every level. */
  static void fill(int i, Group g) {
    Random r = new Random(i * 17L + 3);
    Repeats repeats = new Repeats(r, g);
    g.add("id", (long) i);
    int shape = r.nextInt(6);
    if (shape != 0) {
      Group s = g.addGroup("s");
      if (shape != 1) {
        s.add("a", r.nextInt(100));
      }
      s.add("b", "b" + r.nextInt(30));
      if (shape > 2) {
        Group inner = s.addGroup("inner");
        if (shape > 3) {
          inner.add("x", r.nextDouble());
        }
      }
    }
    repeats.of(
        "l",
        5,
        5,
        (l, k) -> {
          Group item = l.addGroup("list");
          if (r.nextInt(4) != 0) {
            item.add("element", r.nextInt(1000));
          }
        });
    repeats.of(
        "ls",
        4,
        4,
        (ls, k) -> {
          Group item = ls.addGroup("list");
          if (r.nextInt(5) != 0) {
            Group element = item.addGroup("element");
            if (r.nextBoolean()) {
              element.add("name", "n" + r.nextInt(10));
            }
            if (r.nextInt(3) != 0) {
              Group tags = element.addGroup("tags");
              int t = r.nextInt(4);
              for (int q = 0; q < t; q++) {
                tags.addGroup("list").add("element", r.nextInt(50));
              }
            }
          }
        });
    repeats.of(
        "m",
        4,
        4,
        (m, k) -> {
          Group kv = m.addGroup("key_value");
          kv.add("key", "k" + k);
          if (r.nextBoolean()) {
            kv.add("value", r.nextLong());
          }
        });
    repeats.of(
        "mm",
        3,
        3,
        (mm, k) -> {
          Group kv = mm.addGroup("key_value");
          kv.add("key", k);
          if (r.nextInt(3) != 0) {
            Group value = kv.addGroup("value");
            int e = r.nextInt(3);
            for (int q = 0; q < e; q++) {
              Group item = value.addGroup("list");
              if (r.nextBoolean()) {
                item.add("element", "e" + q);
              }
            }
          }
        });
    repeats.of("legacy2", 3, 4, (legacy, k) -> legacy.add("array", r.nextInt(9)));
    repeats.of(
        "legacyArr",
        3,
        3,
        (legacy, k) -> {
          Group array = legacy.addGroup("array");
          if (r.nextBoolean()) {
            array.add("str", "s" + k);
          }
        });
    repeats.of(
        "legacyTuple", 3, 3, (legacy, k) -> legacy.addGroup("legacyTuple_tuple").add("x", k * 7));
    repeats.of(
        "legacyMulti",
        3,
        3,
        (legacy, k) -> {
          Group item = legacy.addGroup("item");
          item.add("a", k);
          if (r.nextBoolean()) {
            item.add("b", -k);
          }
        });
    int reps = r.nextInt(4);
    for (int k = 0; k < reps; k++) {
      g.add("rep", r.nextInt(100));
    }
    int groups = r.nextInt(3);
    for (int k = 0; k < groups; k++) {
      Group rg = g.addGroup("rg");
      rg.add("k", k);
      if (r.nextBoolean()) {
        rg.add("v", "v" + k);
      }
    }
    repeats.of(
        "mkv",
        4,
        3,
        (mkv, k) -> {
          Group map = mkv.addGroup("map");
          map.add("key", "key" + k);
          map.add("value", k);
        });
    Group req = g.addGroup("req");
    req.add("r1", i);
    if (i % 3 == 0) {
      req.add("r2", -i);
    }
  }

  /** The repeated groups of one row, drawn from the row's random source. */
  private record Repeats(Random r, Group g) {

    /**
     * Unless {@code r} leaves it out (one row in {@code absentOneIn}), a repeated group {@code
     * name} of up to {@code most - 1} entries, entry {@code k} filled by {@code entry}.
     */
    void of(String name, int absentOneIn, int most, ObjIntConsumer<Group> entry) {
      if (r.nextInt(absentOneIn) != 0) {
        Group group = g.addGroup(name);
        int n = r.nextInt(most);
        for (int k = 0; k < n; k++) {
          entry.accept(group, k);
        }
      }
    }
  }

  @ParameterizedTest(name = "dictionary={0} {1}")
  @MethodSource("dev.prefetch.parquet.ParquetTestFiles#encodings")
  void nestedColumnsMatchParquetHadoop(boolean dictionary, WriterVersion version)
      throws IOException {
    Path written =
        write(
            "nested-" + dictionary + "-" + version + ".parquet",
            ParquetTestFiles.WriteSpec.encoded(dictionary, version)
                .codec(CompressionCodecName.ZSTD)
                .rowGroupBytes(64 << 10));
    List<List<Object>> expected = Rows.expected(written);
    try (ReadContext context = ReadContext.defaults()) {
      Rows.Scan scan =
          Rows.read(
              written,
              ReadOptions.builder().parallelism(3).batchSize(100).minReadBytes(0).build(),
              context);
      assertThat(scan.rows()).containsExactlyElementsOf(expected);
    }
  }

  /**
   * Several row intervals inside row groups, starting and ending inside pages, and the pages a
   * filter keeps by column index: page-filtered reads whose pages leave gaps, over which every leaf
   * of every nested column seeks to its rows.
   */
  @ParameterizedTest(name = "dictionary={0} {1}")
  @MethodSource("dev.prefetch.parquet.ParquetTestFiles#encodings")
  void nestedColumnsReadSeveralRowIntervalsAtTheirRows(boolean dictionary, WriterVersion version)
      throws IOException {
    Path written =
        write(
            "intervals-" + dictionary + "-" + version + ".parquet",
            ParquetTestFiles.WriteSpec.encoded(dictionary, version).pageRowLimit(50));
    List<List<Object>> expected = Rows.expected(written);
    List<dev.prefetch.RowRange> ranges =
        List.of(
            new dev.prefetch.RowRange(1, 9),
            new dev.prefetch.RowRange(120, 121),
            new dev.prefetch.RowRange(333, 777),
            new dev.prefetch.RowRange(1001, 1003),
            new dev.prefetch.RowRange(1490, 1500));
    List<Long> indexes = Rows.indexes(ranges);
    List<List<Object>> wanted = new ArrayList<>();
    for (long r : indexes) {
      wanted.add(expected.get(Math.toIntExact(r)));
    }
    org.apache.parquet.filter2.compat.FilterCompat.Filter severalPages =
        org.apache.parquet.filter2.compat.FilterCompat.get(
            org.apache.parquet.filter2.predicate.FilterApi.or(
                org.apache.parquet.filter2.predicate.FilterApi.lt(
                    org.apache.parquet.filter2.predicate.FilterApi.longColumn("id"), 70L),
                org.apache.parquet.filter2.predicate.FilterApi.gtEq(
                    org.apache.parquet.filter2.predicate.FilterApi.longColumn("id"), 1420L)));
    try (ReadContext context = ReadContext.defaults()) {
      for (int batch : new int[] {3, 1000}) {
        ReadOptions.Builder options =
            ReadOptions.builder().parallelism(2).batchSize(batch).minReadBytes(0);
        Rows.Scan scan = Rows.read(written, options.rowRanges(ranges).build(), context);
        Rows.Scan filtered =
            Rows.read(written, options.rowRanges(null).filter(severalPages).build(), context);

        assertThat(scan.rowIndexes()).as("batch %s", batch).containsExactlyElementsOf(indexes);
        assertThat(scan.rows()).as("batch %s", batch).containsExactlyElementsOf(wanted);
        assertThat(filtered.rowIndexes()).contains(0L, 69L, 1420L, 1499L).doesNotContain(700L);
        for (int k = 0; k < filtered.rows().size(); k++) {
          assertThat(filtered.rows().get(k))
              .isEqualTo(expected.get(Math.toIntExact(filtered.rowIndexes().get(k))));
        }
      }
    }
  }

  static Stream<Arguments> readSettings() {
    List<Arguments> settings = new ArrayList<>();
    for (int parallelism : new int[] {1, 2, 4, 8}) {
      for (int batch : new int[] {1, 7, 1000, 4096}) {
        for (boolean split : new boolean[] {true, false}) {
          settings.add(Arguments.of(parallelism, batch, split));
        }
      }
    }
    return settings.stream();
  }

  @ParameterizedTest(name = "parallelism={0} batch={1} split={2}")
  @MethodSource("readSettings")
  void everyParallelismAndBatchSizeReadsTheSameRows(int parallelism, int batch, boolean split)
      throws IOException {
    List<List<Object>> expected = Rows.expected(file);
    try (ReadContext context = ReadContext.defaults()) {
      Rows.Scan scan =
          Rows.read(
              file,
              ReadOptions.builder()
                  .parallelism(parallelism)
                  .batchSize(batch)
                  .property(ParquetOptions.SPLIT_ROW_GROUPS, String.valueOf(split))
                  .minReadBytes(0)
                  .build(),
              context);
      assertThat(scan.rows()).containsExactlyElementsOf(expected);
      for (int r = 0; r < scan.rowIndexes().size(); r++) {
        assertThat(scan.rowIndexes().get(r)).isEqualTo(r);
      }
    }
  }

  @Test
  void aNestedFieldCanBeProjectedByItsDottedPath() throws IOException {
    List<String> columns = List.of("s.inner.x", "s.b", "ls", "id");
    List<List<Object>> expected = Rows.expected(file, columns, null);
    try (ReadContext context = ReadContext.defaults()) {
      ReadOptions options =
          ReadOptions.builder().columns(columns).parallelism(2).minReadBytes(0).build();
      Rows.Scan scan = Rows.read(file, options, context);
      assertThat(scan.rows()).containsExactlyElementsOf(expected);
      try (var reader = dev.prefetch.Readers.open(file, options, context)) {
        Schema schema = reader.schema();
        assertThat(schema.fields())
            .extracting(f -> f.name())
            .containsExactly("s.inner.x", "s.b", "ls", "id");
        assertThat(schema.field(0).type()).isEqualTo(DataType.float64());
        assertThat(schema.field(1).nullable()).isTrue(); // its parent struct may be null
        assertThat(schema.field(2).type().kind()).isEqualTo(DataType.Kind.LIST);
      }
    }
  }

  @Test
  void projectionReadsOnlyTheSelectedColumnChunks() throws IOException {
    try (ReadContext context = ReadContext.defaults()) {
      long all;
      long one;
      try (var reader =
          dev.prefetch.Readers.open(
              file,
              ReadOptions.builder().prefetchEnabled(false).wholeFileBytes(0).build(),
              context)) {
        while (reader.next() != null) {
          // drain
        }
        all = dataBytes(reader.metrics());
      }
      try (var reader =
          dev.prefetch.Readers.open(
              file,
              ReadOptions.builder().columns("id").prefetchEnabled(false).wholeFileBytes(0).build(),
              context)) {
        while (reader.next() != null) {
          // drain
        }
        one = dataBytes(reader.metrics());
      }
      assertThat(one).isPositive().isLessThan(all / 4);
    }
  }

  /** Bytes read beyond the footer (whose speculative tail read may hold the whole small file). */
  private static long dataBytes(dev.prefetch.ReaderMetrics metrics) {
    return metrics.bytesRead() - metrics.counter(dev.prefetch.spi.ScanCounters.FOOTER_BYTES_READ);
  }

  @Test
  void legacyListLayoutsMapToLists() throws IOException {
    try (ReadContext context = ReadContext.defaults();
        var reader = dev.prefetch.Readers.open(file, ReadOptions.defaults(), context)) {
      Schema schema = reader.schema();
      assertThat(schema.field("legacy2").orElseThrow().type())
          .isEqualTo(
              DataType.list(new dev.prefetch.batch.Field("element", DataType.int32(), false)));
      assertThat(schema.field("rep").orElseThrow().nullable()).isFalse();
      assertThat(schema.field("rg").orElseThrow().type().elementField().type().kind())
          .isEqualTo(DataType.Kind.STRUCT);
      assertThat(schema.field("mkv").orElseThrow().type().kind()).isEqualTo(DataType.Kind.MAP);
      assertThat(schema.field("legacyTuple").orElseThrow().type().elementField().type().kind())
          .isEqualTo(DataType.Kind.STRUCT);
    }
  }
}
