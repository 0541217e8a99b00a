package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.arrow.ArrowBatches;
import dev.prefetch.arrow.ArrowMapping;
import dev.prefetch.arrow.BatchConverter;
import dev.prefetch.arrow.ValueWalk;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.util.DictionaryUtility;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generator's files through the Arrow mapping, value by value, and {@code export --arrow}: its
 * IPC stream read back with Arrow's {@code ArrowStreamReader} holds the scan's values.
 */
@Timeout(120)
class ArrowExportTest {

  @TempDir static Path dir;

  @BeforeAll
  static void generate() throws IOException {
    for (String format : List.of("parquet", "orc")) {
      for (GenSpec.Kind kind : GenSpec.Kind.values()) {
        Generator.write(
            new GenSpec(
                format,
                kind,
                6000,
                6,
                3,
                GenSpec.DEFAULT_ROW_GROUP_BYTES,
                16 << 10,
                "snappy",
                true,
                true,
                true,
                5),
            file(format, kind));
      }
    }
  }

  private static Path file(String format, GenSpec.Kind kind) {
    return dir.resolve(kind.name().toLowerCase() + "." + format);
  }

  private static org.apache.hadoop.fs.Path hadoop(Path file) {
    return new org.apache.hadoop.fs.Path(file.toUri());
  }

  @ParameterizedTest
  @CsvSource({
    "parquet, SCAN",
    "parquet, WIDE",
    "parquet, NESTED",
    "orc, SCAN",
    "orc, WIDE",
    "orc, NESTED"
  })
  void everyGeneratedValueEqualsItsArrowValue(String format, GenSpec.Kind kind) throws IOException {
    Path file = file(format, kind);
    long values = 0;
    try (BufferAllocator allocator = new RootAllocator()) {
      try (BatchReader reader =
              Readers.open(
                  file, ReadOptions.builder().batchSize(1000).build(), ReadContext.defaults());
          BatchConverter converter =
              ArrowBatches.converter(ArrowMapping.of(reader.schema()), allocator)) {
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          values +=
              ValueWalk.assertSameValues(batch, converter.convert(batch), converter.mapping());
          batch.release();
        }
        assertThat(values).isEqualTo(6000L * reader.schema().size());
      }
      assertThat(allocator.getAllocatedMemory()).isZero();
    }
  }

  @ParameterizedTest
  @CsvSource({"parquet, SCAN", "parquet, NESTED", "orc, SCAN", "orc, NESTED"})
  void theExportedStreamReadsBackToTheScannedValues(String format, GenSpec.Kind kind)
      throws IOException {
    Path file = file(format, kind);
    Path out = dir.resolve("export-" + format + "-" + kind + ".arrows");
    String columns =
        kind == GenSpec.Kind.SCAN
            ? "id,qty,category,comment,ts,amount,active"
            : "id,tags,attrs,point,events";
    Cli.Result r =
        Cli.run(
            "export",
            "--arrow",
            out.toString(),
            "--columns",
            columns,
            "--rows",
            "500:5200",
            "--threads",
            "2",
            "--batch-size",
            "700",
            file.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("4,700 rows");
    ReadOptions options =
        ReadOptions.builder()
            .columns(List.of(columns.split(",")))
            .rowRanges(List.of(new RowRange(500, 5200)))
            .batchSize(700)
            .build();
    assertReadsBack(out, file, options);
  }

  @Test
  void aFilterAppliesToTheExport() throws IOException {
    Path file = file("parquet", GenSpec.Kind.SCAN);
    Path out = dir.resolve("filtered.arrows");
    Cli.Result r =
        Cli.run(
            "export",
            "--arrow",
            out.toString(),
            "--filter",
            "id >= 4100",
            "--json",
            file.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"rows\":2000");
    Object filter =
        FilterParser.parquet(FilterParser.parse("id >= 4100"), hadoop(file), new Configuration());
    assertReadsBack(out, file, ReadOptions.builder().filter(filter).build());
  }

  @Test
  void badArgumentsAndFilesAreReportedWithTheirExitCodes() {
    Path file = file("orc", GenSpec.Kind.SCAN);
    String out = dir.resolve("bad.arrows").toString();
    assertThat(Cli.run("export", file.toString()).exitCode()).isEqualTo(CliException.USAGE);
    assertThat(Cli.run("export", "--arrow", out, file.toString(), file.toString()).exitCode())
        .isEqualTo(CliException.USAGE);
    Cli.Result missing = Cli.run("export", "--arrow", out, dir.resolve("none.orc").toString());
    assertThat(missing.exitCode()).isEqualTo(CliException.READ_ERROR);
    assertThat(missing.err()).contains("none.orc");
    Cli.Result column = Cli.run("export", "--arrow", out, "--columns", "nope", file.toString());
    assertThat(column.exitCode()).isNotZero();
    assertThat(column.err()).contains("nope");
  }

  private static void assertReadsBack(Path out, Path file, ReadOptions options) throws IOException {
    long rows = 0;
    try (BufferAllocator allocator = new RootAllocator();
        InputStream in = Files.newInputStream(out);
        ArrowStreamReader arrow = new ArrowStreamReader(in, allocator);
        BatchReader reader = Readers.open(file, options, ReadContext.defaults())) {
      ArrowMapping mapping =
          ArrowMapping.of(reader.schema(), hadoop(file), new Configuration(), options);
      // The stream states dictionary-encoded fields with their values' type, as the mapping does.
      List<org.apache.arrow.vector.types.pojo.Field> stated = new ArrayList<>();
      for (org.apache.arrow.vector.types.pojo.Field f :
          arrow.getVectorSchemaRoot().getSchema().getFields()) {
        stated.add(DictionaryUtility.toMessageFormat(f, arrow, new HashSet<>()));
      }
      assertThat(stated).isEqualTo(mapping.arrowSchema().getFields());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        assertThat(arrow.loadNextBatch()).isTrue();
        ValueWalk.assertSameValues(batch, arrow.getVectorSchemaRoot(), mapping, arrow);
        rows += batch.rowCount();
      }
      assertThat(arrow.loadNextBatch()).isFalse();
    }
    assertThat(rows).isPositive();
  }
}
