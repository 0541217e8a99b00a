package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** schema, meta and count on generated Parquet and ORC files, flat and nested. */
@Timeout(120)
class InspectCommandsTest extends InspectFilesTest {

  @TempDir static Path dir;

  private static JsonNode json(String... args) throws IOException {
    Cli.Result r = Cli.run(args);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().strip().lines().toList()).hasSize(1);
    return MAPPER.readTree(r.out());
  }

  private static JsonNode column(JsonNode columns, String name) {
    for (JsonNode c : columns) {
      if (c.get("column").asText().equals(name)) {
        return c;
      }
    }
    throw new AssertionError("no column " + name + " in " + columns);
  }

  @Test
  void schemaShowsOurTypesBesideTheFilesOwn() throws IOException {
    JsonNode parquet = json("schema", "--json", files.nestedParquet.toString());
    assertThat(parquet.get("format").asText()).isEqualTo("parquet");
    JsonNode tags = column(parquet.get("columns"), "tags");
    assertThat(tags.get("type").asText()).isEqualTo("list<element: string>");
    assertThat(tags.get("fileType").asText())
        .startsWith("optional group tags (LIST)")
        .contains("binary element (STRING)");
    assertThat(column(parquet.get("columns"), "id").get("nullable").booleanValue()).isFalse();

    JsonNode orc = json("schema", "--json", files.nestedOrc.toString());
    assertThat(column(orc.get("columns"), "attrs").get("fileType").asText())
        .isEqualTo("map<string,bigint>");
    assertThat(column(orc.get("columns"), "attrs").get("type").asText()).startsWith("map<");

    JsonNode scan = json("schema", "--json", files.scanParquet.toString());
    assertThat(scan.get("columns")).hasSize(12);
    assertThat(column(scan.get("columns"), "amount").get("type").asText())
        .isEqualTo("decimal(12,2)");
    assertThat(column(scan.get("columns"), "amount").get("fileType").asText())
        .contains("int64", "DECIMAL(12,2)");
    Cli.Result text = Cli.run("schema", files.scanOrc.toString());
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("format: orc")
        .containsPattern("amount +decimal\\(12,2\\) +yes +decimal\\(12,2\\)");
  }

  @Test
  void metaListsRowGroupsWithSizesCodecsStatisticsAndIndexes() throws IOException {
    JsonNode meta = json("meta", "--json", files.scanParquet.toString());
    assertThat(meta.get("rows").longValue()).isEqualTo(3000);
    assertThat(meta.get("rowGroups").intValue()).isEqualTo(3);
    JsonNode groups = meta.get("rowGroupDetails");
    assertThat(groups).hasSize(3);
    long rows = 0;
    for (JsonNode group : groups) {
      rows += group.get("rows").longValue();
      assertThat(group.get("compressedBytes").longValue()).isPositive();
      assertThat(group.get("columns")).hasSize(12);
      for (JsonNode c : group.get("columns")) {
        assertThat(c.get("codec").asText()).isEqualTo("ZSTD");
        assertThat(c.get("columnIndex").booleanValue()).isTrue();
        assertThat(c.get("offsetIndex").booleanValue()).isTrue();
        assertThat(c.get("bloomFilter").booleanValue()).isFalse();
        assertThat(c.get("crc").isBoolean()).isTrue();
        assertThat(c.get("encodings").asText()).isNotEmpty();
      }
    }
    assertThat(rows).isEqualTo(3000);
    JsonNode id = column(groups.get(1).get("columns"), "id");
    assertThat(id.get("min").asText()).isEqualTo("1000");
    assertThat(id.get("max").asText()).isEqualTo("1999");
    assertThat(column(groups.get(0).get("columns"), "comment").get("nulls").longValue())
        .isPositive();

    Cli.Result text = Cli.run("meta", files.nestedParquet.toString());
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("rowGroups: 3", "rowGroup 2, rows 400")
        .containsPattern("tags\\.list\\.element +BINARY STRING +SNAPPY");
  }

  @Test
  void metaRowGroupsDecodesOnlyTheChosenOnesAndTheyMatchTheFullFooter() throws IOException {
    JsonNode full = json("meta", "--json", files.nestedParquet.toString());
    JsonNode one = json("meta", "--json", "--row-groups", "2", files.nestedParquet.toString());
    assertThat(one.get("rowGroupDetails")).hasSize(1);
    assertThat(one.get("rowGroupDetails").get(0)).isEqualTo(full.get("rowGroupDetails").get(2));
    assertThat(one.get("rows")).isEqualTo(full.get("rows"));

    Cli.Result missing = Cli.run("meta", "--row-groups", "3", files.nestedParquet.toString());
    assertThat(missing.exitCode()).isEqualTo(CliException.USAGE);
    assertThat(missing.err())
        .contains(files.nestedParquet.getFileName().toString(), "row group 3", "3 row groups");
  }

  @Test
  void metaOfOrcListsStripesWithEncodingsStreamsAndStatistics() throws IOException {
    JsonNode meta = json("meta", "--json", files.scanOrc.toString());
    assertThat(meta.get("compression").asText()).isEqualTo("ZSTD");
    assertThat(meta.get("stripes").intValue()).isEqualTo(3);
    long rows = 0;
    for (JsonNode stripe : meta.get("stripeDetails")) {
      rows += stripe.get("rows").longValue();
      assertThat(stripe.get("compressedBytes").longValue())
          .isEqualTo(
              stripe.get("indexBytes").longValue()
                  + stripe.get("dataBytes").longValue()
                  + stripe.get("footerBytes").longValue());
      JsonNode category = column(stripe.get("columns"), "category");
      assertThat(category.get("encoding").asText()).startsWith("DICTIONARY");
      assertThat(category.get("streams").asText()).contains("DATA");
      assertThat(category.get("rowIndex").booleanValue()).isTrue();
    }
    assertThat(rows).isEqualTo(3000);
    JsonNode second = meta.get("stripeDetails").get(1);
    assertThat(column(second.get("columns"), "comment").get("hasNull").booleanValue()).isTrue();
    JsonNode stripe2 = json("meta", "--json", "--row-groups", "1", files.nestedOrc.toString());
    assertThat(stripe2.get("stripeDetails")).hasSize(1);
    assertThat(stripe2.get("stripeDetails").get(0).get("stripe").intValue()).isEqualTo(1);
    assertThat(
            column(stripe2.get("stripeDetails").get(0).get("columns"), "tags._elem")
                .get("type")
                .asText())
        .isEqualTo("string");
  }

  @Test
  void countReadsRowsFromMetadataLikeTheFormatLibraries() throws IOException {
    Configuration conf = new Configuration();
    long parquetRows;
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(files.nestedParquet.toUri()), conf))) {
      parquetRows = reader.getRecordCount();
    }
    long orcRows;
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(files.scanOrc.toUri()), OrcFile.readerOptions(conf))) {
      orcRows = reader.getNumberOfRows();
    }
    long nestedStripe1Rows;
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(files.nestedOrc.toUri()), OrcFile.readerOptions(conf))) {
      nestedStripe1Rows = reader.getStripes().get(1).getNumberOfRows();
    }
    Cli.Result r = Cli.run("count", files.nestedParquet.toString(), files.scanOrc.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches(" *1,200  .*nested\\.parquet");
    assertThat(parquetRows).isEqualTo(1200);
    assertThat(orcRows).isEqualTo(3000);
    assertThat(lines.get(2)).matches(" *4,200  total");

    JsonNode groups = json("count", "--json", "--row-groups", "0,2", files.scanParquet.toString());
    assertThat(groups.get("rows").longValue()).isEqualTo(2000);
    JsonNode stripes = json("count", "--json", "--row-groups", "1", files.nestedOrc.toString());
    assertThat(stripes.get("rows").longValue()).isEqualTo(nestedStripe1Rows);

    Cli.Result filtered = Cli.run("count", "--filter", "id > 3", files.scanOrc.toString());
    assertThat(filtered.exitCode()).isEqualTo(CliException.USAGE);
    assertThat(filtered.err()).contains("count reads metadata only");
  }

  @Test
  void inspectionOfABadFileNamesIt() throws IOException {
    Path bad = dir.resolve("bad.parquet");
    java.nio.file.Files.write(bad, "PAR1 this is not a footer PAR1".getBytes());
    for (String command : List.of("schema", "meta", "count", "head")) {
      Cli.Result r = Cli.run(command, bad.toString());
      assertThat(r.exitCode()).as(command + ": " + r.err()).isEqualTo(CliException.READ_ERROR);
      assertThat(r.err()).as(command).contains("bad.parquet");
    }
  }
}
