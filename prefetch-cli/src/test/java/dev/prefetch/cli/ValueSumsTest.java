package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.testkit.baseline.OrcBaseline;
import dev.prefetch.testkit.baseline.ParquetBaseline;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProgressBar;
import dev.prefetch.testkit.scan.ScanConsumer;
import dev.prefetch.testkit.scan.StreamScan;
import dev.prefetch.testkit.scan.ValueSums;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The light consumer: our reader's sums (bulk, over its vectors) equal those of the format
 * library's values fed one by one in the checksum's canonical form, whatever the batches and the
 * producers; null slots and dictionaries do not change them; {@code scan --consumer sums} times
 * with it.
 */
@Timeout(180)
class ValueSumsTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int ROWS = 40_000;

  @TempDir static Path dir;

  static Path parquet;
  static Path orc;

  @BeforeAll
  static void writeFiles() throws IOException {
    parquet = dir.resolve("scan.parquet");
    orc = dir.resolve("scan.orc");
    Generator.write(
        GenSpec.inRowGroups("parquet", GenSpec.Kind.SCAN, ROWS, 3, 16 << 10, "snappy", 5), parquet);
    Generator.write(
        GenSpec.inRowGroups("orc", GenSpec.Kind.SCAN, ROWS, 3, 16 << 10, "zlib", 5), orc);
  }

  private static ValueSums ours(Path file, ReadOptions options) throws IOException {
    ValueSums sums = null;
    try (ReadContext context = ReadContext.defaults();
        dev.prefetch.BatchReader reader =
            dev.prefetch.Readers.open(DataFile.of(file), options, context)) {
      sums = new ValueSums(reader.schema().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        sums.add(batch);
        batch.release();
      }
    }
    return sums;
  }

  private static ValueSums library(Path file) throws IOException {
    ValueSums sums = new ValueSums(12);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    Configuration conf = new Configuration();
    if (file.toString().endsWith(".parquet")) {
      ParquetBaseline.scan(path, conf, List.of(), null, null, null, false, false, sums);
    } else {
      OrcBaseline.scan(path, conf, List.of(), null, null, false, sums);
    }
    return sums;
  }

  private static void assertSameSums(ValueSums actual, ValueSums expected) {
    assertThat(actual.columns()).isEqualTo(expected.columns());
    for (int c = 0; c < expected.columns(); c++) {
      assertThat(actual.sum(c)).as("sum of column %d", c).isEqualTo(expected.sum(c));
      assertThat(actual.nulls(c)).as("nulls of column %d", c).isEqualTo(expected.nulls(c));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void ourBulkSumsEqualTheLibrarysValuesFedOneByOne(String format) throws IOException {
    Path file = format.equals("parquet") ? parquet : orc;
    ValueSums expected = library(file);
    assertThat(expected.nulls(5)).as("the nullable comment column has nulls").isPositive();
    ValueSums single = ours(file, ReadOptions.builder().prefetchEnabled(false).build());
    assertSameSums(single, expected);
    ValueSums two =
        ours(file, ReadOptions.builder().parallelism(2).batchSize(1000).minReadBytes(0).build());
    assertSameSums(two, expected);
    assertThat(two.value()).isEqualTo(single.value()).hasSize(16);
    assertThat(single.rows()).isEqualTo(ROWS);
  }

  @Test
  void nullSlotsAndDictionariesDoNotChangeTheSums() {
    BinaryVector entries = strings("alpha", "a considerably longer entry", "");
    int[] ids = {1, 0, 2, 1, 7};
    boolean[] nulls = {false, false, false, false, true}; // id 7: a null row's slot
    ColumnVector dictionary = new DictionaryVector(5, ids, entries, nulls);
    ColumnVector plain =
        strings(nulls, "a considerably longer entry", "alpha", "", "a considerably longer entry");
    long[] longs = {3, -4, 5, 6, Long.MAX_VALUE}; // the last slot is null
    ColumnVector withNull = new LongVector(DataType.int64(), 5, longs, nulls);
    Schema schema =
        new Schema(
            List.of(
                Field.of("s", DataType.string()),
                Field.of("t", DataType.string()),
                Field.of("n", DataType.int64())));
    ValueSums bulk = new ValueSums(3);
    bulk.add(
        new RecordBatch(
            DataFile.of(Path.of("x")), 0, 5, schema, List.of(dictionary, plain, withNull)));
    assertThat(bulk.sum(0)).isEqualTo(bulk.sum(1));
    assertThat(bulk.nulls(0)).isEqualTo(1);
    assertThat(bulk.sum(2)).isEqualTo(10);
    assertThat(bulk.nulls(2)).isEqualTo(1);
    ValueSums single = new ValueSums(3);
    for (String s :
        new String[] {"a considerably longer entry", "alpha", "", "a considerably longer entry"}) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      single.addBytes(0, b, 0, b.length);
    }
    single.addNull(0);
    assertThat(single.sum(0)).isEqualTo(bulk.sum(0));
  }

  @Test
  void aValueHashesAlikeWhereverItLiesInItsArray() {
    byte[] value = "seventeen bytes!!".getBytes(StandardCharsets.UTF_8);
    byte[] atEnd = new byte[40];
    System.arraycopy(value, 0, atEnd, atEnd.length - value.length, value.length);
    byte[] inMiddle = new byte[64];
    System.arraycopy(value, 0, inMiddle, 3, value.length);
    long alone = ValueSums.bytesHash(value, 0, value.length);
    assertThat(ValueSums.bytesHash(atEnd, atEnd.length - value.length, value.length))
        .isEqualTo(alone);
    assertThat(ValueSums.bytesHash(inMiddle, 3, value.length)).isEqualTo(alone);
    assertThat(ValueSums.bytesHash(value, 0, 16)).isNotEqualTo(alone);
  }

  @Test
  void scanWithTheSumsConsumerReportsTheSumsValue() throws IOException {
    Cli.Result r = Cli.run("scan", "--json", "--consumer", "sums", "--no-prefetch", parquet + "");
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = MAPPER.readTree(r.out().strip());
    assertThat(json.get("consumer").asText()).isEqualTo("sums");
    assertThat(json.get("rows").asLong()).isEqualTo(ROWS);
    Contender.Scan sums;
    try (ReadContext context = ReadContext.defaults()) {
      sums =
          Contender.ours(
                  "single",
                  ReadOptions.builder().prefetchEnabled(false).build(),
                  context,
                  null,
                  ScanConsumer.SUMS)
              .scan(
                  new org.apache.hadoop.fs.Path(parquet.toUri()),
                  "parquet",
                  false,
                  ProgressBar.none());
    }
    assertThat(json.get("checksum").asText()).isEqualTo(sums.checksum());
    Cli.Result plain = Cli.run("scan", "--json", "--no-prefetch", parquet + "");
    JsonNode checksum = MAPPER.readTree(plain.out().strip());
    assertThat(checksum.get("consumer").asText()).isEqualTo("checksum");
    assertThat(checksum.get("checksum").asText()).isNotEqualTo(sums.checksum());
    Cli.Result text = Cli.run("scan", "--consumer", "SUMS", parquet + "");
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out().lines().findFirst().orElseThrow()).endsWith("sums");
  }

  @Test
  void anUnknownConsumerIsAUsageError() {
    Cli.Result r = Cli.run("scan", "--consumer", "md5", parquet + "");
    assertThat(r.exitCode()).isEqualTo(CliException.USAGE);
    assertThat(r.err()).contains("expected checksum or sums");
  }

  @Test
  void perColumnChecksumsNeedTheChecksumConsumer() {
    try (ReadContext context = ReadContext.defaults()) {
      assertThatThrownBy(
              () ->
                  StreamScan.scan(
                      List.of(DataFile.of(parquet)),
                      ReadOptions.defaults(),
                      context,
                      true,
                      ProgressBar.none(),
                      ScanConsumer.SUMS))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  private static BinaryVector strings(String... values) {
    return strings(null, values);
  }

  /** A binary vector of {@code values}, then one null slot when {@code nulls} is given. */
  private static BinaryVector strings(boolean[] nulls, String... values) {
    int size = values.length + (nulls == null ? 0 : 1);
    int[] offsets = new int[size + 1];
    java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < values.length; i++) {
      data.writeBytes(values[i].getBytes(StandardCharsets.UTF_8));
      offsets[i + 1] = data.size();
    }
    if (nulls != null) {
      data.writeBytes("garbage".getBytes(StandardCharsets.UTF_8));
      offsets[size] = data.size();
    }
    return new BinaryVector(DataType.string(), size, data.toByteArray(), offsets, nulls);
  }
}
