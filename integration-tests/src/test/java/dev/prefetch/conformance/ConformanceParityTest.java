package dev.prefetch.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.cli.PrefetchScan;
import dev.prefetch.parquet.testing.PageHeaders;
import dev.prefetch.testkit.baseline.OrcBaseline;
import dev.prefetch.testkit.baseline.ParquetBaseline;
import dev.prefetch.testkit.scan.BatchValues;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.format.PageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file of the conformance corpus reads equal, column by column and row by row, to three
 * independent readers through the documented type mapping: Arrow C++ (its own decoders and codecs),
 * and parquet-hadoop's column readers or orc-core's vectorized reader (through the reference side
 * of {@code verify}). Where Arrow C++ cannot read a file or reads a column differently, the corpus
 * says why and which reader is right, this test checks that it still does, and the column is
 * checked against the other reference and, where the corpus has one, a hand-written expectation.
 * {@code verify} passes on every file.
 */
@Timeout(300)
class ConformanceParityTest extends CorpusFilesTest {

  /** Our read, at {@link #smallBatches}. */
  static Canonical ours(CorpusFile file, Schema[] schema) throws Exception {
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file.path(), smallBatches(), context)) {
      schema[0] = reader.schema();
      Canonical values = new Canonical(reader.schema().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        for (int c = 0; c < batch.columns().size(); c++) {
          for (int r = 0; r < batch.rowCount(); r++) {
            BatchValues.feedRow(batch.column(c), r, c, values);
          }
        }
        batch.release();
      }
      return values;
    }
  }

  static Canonical library(CorpusFile file, int columns) throws Exception {
    Canonical values = new Canonical(columns);
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.path().toUri());
    if (file.format().equals("parquet")) {
      ParquetBaseline.scan(
          path, new Configuration(), List.of(), null, null, null, false, false, values);
    } else {
      OrcBaseline.scan(path, new Configuration(), List.of(), null, null, false, values);
    }
    return values;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void everyFileReadsEqualToEveryReferenceThatReadsItRight(CorpusFile file) throws Exception {
    Schema[] schema = new Schema[1];
    Canonical ours = ours(file, schema);
    String libraryName = file.format().equals("parquet") ? "parquet-hadoop" : "orc-core";
    Canonical library = library(file, schema[0].size());
    for (int c = 0; c < schema[0].size(); c++) {
      assertThat(ours.column(c))
          .as("%s column '%s' vs %s", file, schema[0].field(c).name(), libraryName)
          .isEqualTo(library.column(c));
    }

    if (file.arrowUnreadable() != null) {
      assertThatThrownBy(
              () ->
                  ArrowReference.read(
                      file.path(), file.format(), schema[0], new Canonical(schema[0].size())))
          .as("%s: %s", file, file.arrowUnreadable())
          .isNotNull();
      if (file.sameValuesAs() != null) {
        CorpusFile same =
            corpus.stream()
                .filter(f -> f.name().equals(file.sameValuesAs()))
                .findFirst()
                .orElseThrow();
        Canonical arrow = new Canonical(schema[0].size());
        ArrowReference.read(same.path(), same.format(), schema[0], arrow);
        for (int c = 0; c < schema[0].size(); c++) {
          assertThat(ours.column(c))
              .as("%s column '%s' vs Arrow C++'s read of %s", file, schema[0].field(c).name(), same)
              .isEqualTo(arrow.column(c));
        }
      }
    } else {
      Canonical arrow = new Canonical(schema[0].size());
      ArrowReference.read(file.path(), file.format(), schema[0], arrow);
      for (int c = 0; c < schema[0].size(); c++) {
        String name = schema[0].field(c).name();
        String why = file.arrowDiffers().get(name);
        if (why == null) {
          assertThat(ours.column(c))
              .as("%s column '%s' vs Arrow C++", file, name)
              .isEqualTo(arrow.column(c));
        } else {
          assertThat(ours.column(c))
              .as("%s column '%s': Arrow C++ differs because %s", file, name, why)
              .isNotEqualTo(arrow.column(c));
        }
      }
    }

    for (Map.Entry<String, List<List<Object>>> expected : file.expected().entrySet()) {
      int c = schema[0].indexOf(expected.getKey());
      assertThat(ours.column(c))
          .as("%s column '%s' vs the hand-written values", file, expected.getKey())
          .isEqualTo(expected.getValue());
    }
  }

  /** {@code verify} over the whole corpus in one command: every file OK, exit code 0. */
  @Test
  void verifyPassesOnEveryFile() {
    List<String> args = new ArrayList<>(List.of("verify", "--threads", "2"));
    for (CorpusFile file : corpus) {
      args.add(file.path().toString());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        PrefetchScan.run(
            args.toArray(new String[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(printed + err.toString(StandardCharsets.UTF_8)).isZero();
    for (CorpusFile file : corpus) {
      assertThat(printed).contains(file.path() + ": OK, ");
    }
  }

  /** The corpus holds what it claims: every encoding and page kind, checked in the pages. */
  @Test
  void theCorpusHoldsEveryEncodingAndPageKind() throws Exception {
    Set<String> seen = new HashSet<>();
    for (CorpusFile file : corpus) {
      if (!file.format().equals("parquet")) {
        continue;
      }
      try (var reader =
          org.apache.parquet.hadoop.ParquetFileReader.open(
              org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                  new org.apache.hadoop.fs.Path(file.path().toUri()), new Configuration()))) {
        for (var block : reader.getFooter().getBlocks()) {
          for (var chunk : block.getColumns()) {
            seen.add(chunk.getColumnIndexReference() != null ? "page index" : "no page index");
            seen.add(
                chunk.getStatistics() != null && !chunk.getStatistics().isEmpty()
                    ? "statistics"
                    : "no statistics");
          }
        }
      }
      List<PageHeaders.Page> pages = PageHeaders.of(file.path());
      Map<String, List<String>> chunkEncodings = new java.util.HashMap<>();
      for (PageHeaders.Page page : pages) {
        var h = page.header();
        String encoding =
            h.getData_page_header() != null
                ? h.getData_page_header().getEncoding().name()
                : h.getData_page_header_v2() != null
                    ? h.getData_page_header_v2().getEncoding().name()
                    : null;
        if (encoding != null) {
          seen.add(encoding);
          seen.add(file.name() + ":" + page.column() + ":" + encoding);
          chunkEncodings
              .computeIfAbsent(file.name() + ":" + page.column(), k -> new ArrayList<>())
              .add(encoding);
        }
        seen.add(h.getType().name());
        seen.add(h.isSetCrc() ? "crc" : "no crc");
        if (page.isV2WithEmptyCompressedData()) {
          seen.add("empty compressed V2 data");
        }
      }
      for (List<String> encodings : chunkEncodings.values()) {
        if (encodings.get(0).endsWith("_DICTIONARY") && encodings.contains("PLAIN")
            || encodings.get(0).endsWith("_DICTIONARY") && encodings.contains("DELTA_BYTE_ARRAY")) {
          seen.add("dictionary fallback mid-chunk");
        }
      }
    }
    assertThat(seen)
        .contains(
            "PLAIN",
            "RLE_DICTIONARY",
            "PLAIN_DICTIONARY",
            "DELTA_BINARY_PACKED",
            "DELTA_BYTE_ARRAY",
            "DELTA_LENGTH_BYTE_ARRAY",
            "encodings-v1:f:BYTE_STREAM_SPLIT",
            "encodings-v1:d:BYTE_STREAM_SPLIT",
            "encodings-v1:i:BYTE_STREAM_SPLIT",
            "encodings-v1:l:BYTE_STREAM_SPLIT",
            "encodings-v1:fx:BYTE_STREAM_SPLIT",
            "dictionary fallback mid-chunk",
            PageType.DATA_PAGE.name(),
            PageType.DATA_PAGE_V2.name(),
            PageType.DICTIONARY_PAGE.name(),
            "crc",
            "no crc",
            "empty compressed V2 data",
            "page index",
            "no page index",
            "statistics",
            "no statistics");
  }
}
