package dev.prefetch.testkit.gen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.testkit.baseline.BaselineResult;
import dev.prefetch.testkit.baseline.OrcBaseline;
import dev.prefetch.testkit.baseline.ParquetBaseline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratorTest {

  @TempDir Path dir;

  private static GenSpec spec(String format, GenSpec.Kind kind, long rows, long seed) {
    return new GenSpec(
        format,
        kind,
        rows,
        6,
        3,
        GenSpec.DEFAULT_ROW_GROUP_BYTES,
        64 << 10,
        "snappy",
        true,
        true,
        true,
        seed);
  }

  /** 5000 uncompressed, undictionaried rows in one row group of 4 KiB pages. */
  private static GenSpec uncompressedScan(boolean pageIndex) {
    return new GenSpec(
        "parquet",
        GenSpec.Kind.SCAN,
        5000,
        0,
        1,
        GenSpec.DEFAULT_ROW_GROUP_BYTES,
        4096,
        "none",
        false,
        true,
        pageIndex,
        1);
  }

  static BaselineResult read(Path file) throws IOException {
    return read(file, List.of(), null, true);
  }

  /** {@code columns} (all when empty) of {@code rows} (all when null), read by the baseline. */
  static BaselineResult read(
      Path file, List<String> columns, dev.prefetch.RowRange rows, boolean perColumn)
      throws IOException {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    return file.toString().endsWith(".parquet")
        ? ParquetBaseline.scan(path, conf, columns, null, null, rows, perColumn)
        : OrcBaseline.scan(path, conf, columns, null, rows, perColumn);
  }

  /**
   * Writes {@link #spec} to a file named after its kind and format, and reads it back with that
   * format library's baseline.
   */
  private BaselineResult writeAndRead(String format, GenSpec.Kind kind, long rows, long seed)
      throws IOException {
    Path file = dir.resolve(kind.name().toLowerCase(java.util.Locale.ROOT) + "." + format);
    Generator.write(spec(format, kind, rows, seed), file);
    return read(file);
  }

  private static org.apache.parquet.hadoop.ParquetFileReader parquetReader(Path file)
      throws IOException {
    return org.apache.parquet.hadoop.ParquetFileReader.open(
        org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
            new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()));
  }

  @Test
  void sameSeedWritesTheSameValuesAndAnotherSeedOthers() throws IOException {
    for (String format : List.of("parquet", "orc")) {
      Path a = dir.resolve("a." + format);
      Path b = dir.resolve("b." + format);
      Path c = dir.resolve("c." + format);
      Generator.write(spec(format, GenSpec.Kind.SCAN, 5000, 7), a);
      Generator.write(spec(format, GenSpec.Kind.SCAN, 5000, 7), b);
      Generator.write(spec(format, GenSpec.Kind.SCAN, 5000, 8), c);

      BaselineResult ra = read(a);
      assertThat(ra.rows()).isEqualTo(5000);
      assertThat(ra.columns()).isEqualTo(12);
      assertThat(read(b).checksum()).isEqualTo(ra.checksum());
      assertThat(read(c).checksum()).isNotEqualTo(ra.checksum());
      assertThat(Files.readAllBytes(b)).isEqualTo(Files.readAllBytes(a));
    }
  }

  @Test
  void parquetAndOrcHoldTheSameScanValuesExceptTheTimestampUnit() throws IOException {
    BaselineResult p = writeAndRead("parquet", GenSpec.Kind.SCAN, 3000, 1);
    BaselineResult o = writeAndRead("orc", GenSpec.Kind.SCAN, 3000, 1);
    assertThat(p.columnNames()).containsExactly(Tables.SCAN_COLUMNS);
    assertThat(o.columnNames()).containsExactly(Tables.SCAN_COLUMNS);
    for (int c = 0; c < p.columns(); c++) {
      if (p.columnNames().get(c).equals("ts")) {
        // Parquet stores microseconds, the ORC baseline feeds nanoseconds.
        continue;
      }
      assertThat(o.columnChecksums().get(c))
          .as(p.columnNames().get(c))
          .isEqualTo(p.columnChecksums().get(c));
    }
  }

  @Test
  void nestedValuesAssembledFromParquetLevelsEqualOrcVectors() throws IOException {
    BaselineResult p = writeAndRead("parquet", GenSpec.Kind.NESTED, 4000, 3);
    BaselineResult o = writeAndRead("orc", GenSpec.Kind.NESTED, 4000, 3);
    assertThat(p.rows()).isEqualTo(4000);
    assertThat(p.columnNames()).containsExactly(Tables.NESTED_COLUMNS);
    assertThat(o.columnChecksums()).isEqualTo(p.columnChecksums());
    assertThat(o.checksum()).isEqualTo(p.checksum());
  }

  @Test
  void wideTableHasTheAskedRowGroupsAndColumns() throws IOException {
    Path parquet = dir.resolve("wide.parquet");
    Generator.write(spec("parquet", GenSpec.Kind.WIDE, 3000, 1), parquet);
    try (org.apache.parquet.hadoop.ParquetFileReader reader = parquetReader(parquet)) {
      assertThat(reader.getRowGroups()).hasSize(3);
      assertThat(reader.getFooter().getFileMetaData().getSchema().getFieldCount()).isEqualTo(6);
    }
    Path orc = dir.resolve("wide.orc");
    Generator.write(spec("orc", GenSpec.Kind.WIDE, 3000, 1), orc);
    try (org.apache.orc.Reader reader =
        org.apache.orc.OrcFile.createReader(
            new org.apache.hadoop.fs.Path(orc.toUri()),
            org.apache.orc.OrcFile.readerOptions(new Configuration()))) {
      assertThat(reader.getStripes()).hasSize(3);
    }
    assertThat(read(parquet).checksum()).isEqualTo(read(orc).checksum());
  }

  @Test
  void pageIndexesAndStatisticsFollowTheirSwitches() throws IOException {
    Path with = dir.resolve("with.parquet");
    Path without = dir.resolve("without.parquet");
    Generator.write(uncompressedScan(true), with);
    Generator.write(uncompressedScan(false), without);
    for (Path file : List.of(with, without)) {
      try (org.apache.parquet.hadoop.ParquetFileReader reader = parquetReader(file)) {
        var qty = reader.getRowGroups().get(0).getColumns().get(1);
        boolean indexed = file.equals(with);
        assertThat(reader.readColumnIndex(qty) != null).as(file.toString()).isEqualTo(indexed);
        assertThat(qty.getStatistics().hasNonNullValue()).isEqualTo(indexed);
        assertThat(reader.readOffsetIndex(qty).getPageCount()).isGreaterThan(1);
      }
    }
    assertThat(read(without).checksum()).isEqualTo(read(with).checksum());
  }

  @Test
  void rowSelectionOfTheBaselinesReadsOnlyThoseRows() throws IOException {
    Path parquet = dir.resolve("rows.parquet");
    Path orc = dir.resolve("rows.orc");
    Generator.write(spec("parquet", GenSpec.Kind.NESTED, 3000, 5), parquet);
    Generator.write(spec("orc", GenSpec.Kind.NESTED, 3000, 5), orc);
    dev.prefetch.RowRange rows = new dev.prefetch.RowRange(900, 2100);
    BaselineResult p = read(parquet, List.of("id", "events"), rows, false);
    BaselineResult o = read(orc, List.of("id", "events"), rows, false);
    assertThat(p.rows()).isEqualTo(1200);
    assertThat(o.rows()).isEqualTo(1200);
    assertThat(p.checksum()).isEqualTo(o.checksum());
  }
}
