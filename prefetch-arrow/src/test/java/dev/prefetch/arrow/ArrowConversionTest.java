package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class ArrowConversionTest extends AllocatorTest {

  private static final int ROWS = 3000;

  @TempDir static Path dir;
  static Path parquet;
  static Path orc;

  @BeforeAll
  static void writeFiles() throws IOException {
    parquet = ArrowTestFiles.writeParquet(dir.resolve("all.parquet"), ROWS, 7);
    orc = ArrowTestFiles.writeOrc(dir.resolve("all.orc"), ROWS, 7);
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path file) {
    return new org.apache.hadoop.fs.Path(file.toUri());
  }

  @Test
  void parquetTypesMapToTheirArrowTypes() throws IOException {
    try (BatchReader reader =
        Readers.open(parquet, ReadOptions.defaults(), ReadContext.defaults())) {
      Schema arrow = ArrowMapping.of(reader.schema()).arrowSchema();
      assertThat(type(arrow, "u8")).isEqualTo(new ArrowType.Int(8, false));
      assertThat(type(arrow, "u16")).isEqualTo(new ArrowType.Int(16, false));
      assertThat(type(arrow, "u32")).isEqualTo(new ArrowType.Int(32, false));
      assertThat(type(arrow, "u64")).isEqualTo(new ArrowType.Int(64, false));
      assertThat(type(arrow, "f16"))
          .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.HALF));
      assertThat(type(arrow, "d9")).isEqualTo(new ArrowType.Decimal(9, 2, 128));
      assertThat(type(arrow, "d38")).isEqualTo(new ArrowType.Decimal(38, 10, 128));
      assertThat(type(arrow, "d60")).isEqualTo(new ArrowType.Decimal(60, 5, 256));
      assertThat(type(arrow, "uuid")).isEqualTo(new ArrowType.FixedSizeBinary(16));
      assertThat(type(arrow, "tms")).isEqualTo(new ArrowType.Time(TimeUnit.MILLISECOND, 32));
      assertThat(type(arrow, "tns")).isEqualTo(new ArrowType.Time(TimeUnit.NANOSECOND, 64));
      assertThat(type(arrow, "tsms"))
          .isEqualTo(new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"));
      assertThat(type(arrow, "tsus"))
          .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
      // INT96 reads as microseconds by default (parquet.read.int96-timestamp-unit).
      assertThat(type(arrow, "ts96"))
          .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
      Field st = arrow.findField("st");
      assertThat(st.getChildren().get(2).getChildren().get(0).getType())
          .isEqualTo(new ArrowType.Int(16, false));
      assertThat(arrow.findField("lu").getChildren().get(0).getType())
          .isEqualTo(new ArrowType.Int(64, false));
      assertThat(type(arrow, "m")).isEqualTo(new ArrowType.Map(false));
    }
  }

  @Test
  void orcUnionsBecomeDenseUnions() throws IOException {
    try (BatchReader reader = Readers.open(orc, ReadOptions.defaults(), ReadContext.defaults())) {
      Schema arrow = ArrowMapping.of(reader.schema()).arrowSchema();
      assertThat(type(arrow, "u"))
          .isEqualTo(new ArrowType.Union(UnionMode.Dense, new int[] {0, 1, 2}));
      assertThat(arrow.findField("u").getChildren()).hasSize(3);
      assertThat(type(arrow, "ts")).isEqualTo(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null));
      assertThat(type(arrow, "tsz")).isEqualTo(new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC"));
      assertThat(type(arrow, "d30")).isEqualTo(new ArrowType.Decimal(30, 5, 128));
    }
  }

  @Test
  void aSchemaWithoutTheFilesOwnTypesMapsByTheBatchTypes() throws IOException {
    try (BatchReader reader =
        Readers.open(parquet, ReadOptions.defaults(), ReadContext.defaults())) {
      List<dev.prefetch.batch.Field> plain = new ArrayList<>();
      for (dev.prefetch.batch.Field field : reader.schema().fields()) {
        plain.add(new dev.prefetch.batch.Field(field.name(), field.type(), field.nullable()));
      }
      Schema arrow = ArrowMapping.of(new dev.prefetch.batch.Schema(plain)).arrowSchema();
      assertThat(type(arrow, "u8")).isEqualTo(new ArrowType.Int(16, true));
      assertThat(type(arrow, "u64")).isEqualTo(new ArrowType.Decimal(20, 0, 128));
      assertThat(type(arrow, "f16"))
          .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void everyValueOfEveryColumnEqualsTheBatchValue(String format) throws IOException {
    Path file = format.equals("parquet") ? parquet : orc;
    long values = 0;
    int batches = 0;
    ReadOptions options = ReadOptions.builder().batchSize(700).prefetchEnabled(false).build();
    try (BatchReader reader = Readers.open(file, options, ReadContext.defaults());
        BatchConverter converter =
            ArrowBatches.converter(ArrowMapping.of(reader.schema()), allocator)) {
      TypeWalk.assertMapped(reader.schema(), converter.mapping().arrowSchema());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        VectorSchemaRoot root = converter.convert(batch);
        values += ValueWalk.assertSameValues(batch, root, converter.mapping());
        batches++;
      }
    }
    assertThat(batches).isGreaterThan(4);
    assertThat(values)
        .isEqualTo(
            (long) ROWS
                * (format.equals("parquet")
                    ? ArrowTestFiles.PARQUET_ALL_TYPES.getFieldCount()
                    : ArrowTestFiles.ORC_ALL_TYPES.getChildren().size()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void theArrowReaderStreamsTheSameValuesAsTheScan(String format) throws IOException {
    Path file = format.equals("parquet") ? parquet : orc;
    ReadOptions options =
        ReadOptions.builder()
            .batchSize(512)
            .parallelism(2)
            .property("prefetch.min-read-bytes", "0")
            .build();
    List<RecordBatch> expected = new ArrayList<>();
    try (BatchReader reader =
        Readers.open(
            file,
            ReadOptions.builder().batchSize(512).prefetchEnabled(false).build(),
            ReadContext.defaults())) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        expected.add(batch);
      }
    }
    try (PrefetchArrowReader reader =
        PrefetchArrowReader.open(DataFile.of(file), options, ReadContext.defaults(), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      int i = 0;
      while (reader.loadNextBatch()) {
        ValueWalk.assertSameValues(expected.get(i++), root, reader.mapping(), reader);
      }
      assertThat(i).isEqualTo(expected.size());
      assertThat(reader.rows()).isEqualTo(ROWS);
      if (format.equals("parquet")) {
        assertThat(reader.scan().metrics().prefetch()).isTrue();
      }
    }
  }

  @Test
  void aBatchConvertedOnItsOwnIsANewRootTheCallerCloses() throws IOException {
    try (BatchReader reader =
        Readers.open(orc, ReadOptions.builder().batchSize(100).build(), ReadContext.defaults())) {
      RecordBatch batch = reader.next();
      try (VectorSchemaRoot root = ArrowBatches.toArrow(batch, allocator)) {
        assertThat(root.getRowCount()).isEqualTo(100);
        ValueWalk.assertSameValues(batch, root, ArrowMapping.of(batch.schema()));
        assertThat(allocator.getAllocatedMemory()).isPositive();
      }
    }
  }

  @Test
  void projectionsRowRangesAndFiltersApply() throws IOException {
    ReadOptions options =
        ReadOptions.builder()
            .columns("id", "u64", "st")
            .rowRanges(List.of(new dev.prefetch.RowRange(100, 1100)))
            .build();
    try (PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(parquet), options, ReadContext.defaults(), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      assertThat(root.getSchema().getFields())
          .extracting(Field::getName)
          .containsExactly("id", "u64", "st");
      long first = -1;
      long rows = 0;
      while (reader.loadNextBatch()) {
        org.apache.arrow.vector.BigIntVector id =
            (org.apache.arrow.vector.BigIntVector) root.getVector("id");
        if (first < 0) {
          first = id.get(0);
        }
        rows += root.getRowCount();
      }
      assertThat(first).isEqualTo(100);
      assertThat(rows).isEqualTo(1000);
    }
  }

  private static ArrowType type(Schema schema, String name) {
    return schema.findField(name).getType();
  }
}
