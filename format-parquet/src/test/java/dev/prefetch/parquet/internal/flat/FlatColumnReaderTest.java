package dev.prefetch.parquet.internal.flat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.parquet.internal.page.ChunkPages;
import dev.prefetch.parquet.internal.plan.LeafTypes;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntPredicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generic flat column reader against parquet-hadoop's ColumnReader, value for value, over every
 * flat physical type, both page versions, dictionary on and off, byte-stream-split, nulls, many
 * pages, several row groups, and batches that cut pages at random places.
 */
class FlatColumnReaderTest {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m {"
              + " required int32 i32; optional int32 oi32;"
              + " required int64 i64; optional int64 oi64;"
              + " optional float f; required double d;"
              + " optional boolean b; required boolean rb;"
              + " optional binary s (STRING); required binary rs (STRING);"
              + " optional fixed_len_byte_array(5) fx;"
              + " optional int64 sparse; optional binary allnull; }");

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} dictionary={1} split={2} {3}")
  @CsvSource({
    "PARQUET_1_0, true, false, SNAPPY",
    "PARQUET_1_0, false, false, UNCOMPRESSED",
    "PARQUET_2_0, true, false, ZSTD",
    "PARQUET_2_0, false, false, GZIP",
    "PARQUET_2_0, false, true, SNAPPY",
    "PARQUET_1_0, false, true, UNCOMPRESSED"
  })
  void readsEqualTheColumnReader(
      WriterVersion version,
      boolean dictionary,
      boolean byteStreamSplit,
      CompressionCodecName codec)
      throws IOException {
    org.apache.hadoop.fs.Path file = write(version, dictionary, byteStreamSplit, codec, 20_000);
    compareEveryColumn(file, version, dictionary, false);
  }

  /**
   * The dictionary-ids adapter on every string and binary chunk, whatever its metadata says: the
   * high-cardinality columns outgrow the writer's 8 KiB dictionary and fall back to plain pages
   * mid-chunk, so a batch that meets the first plain page turns into plain bytes; the others stay
   * dictionary vectors. Either way every value equals the library's.
   */
  @ParameterizedTest(name = "{0} dictionary={1}")
  @CsvSource({"PARQUET_1_0, true", "PARQUET_2_0, true", "PARQUET_2_0, false"})
  void dictionaryIdsEqualTheColumnReaderAlsoWhereAChunkFallsBackToPlainPages(
      WriterVersion version, boolean dictionary) throws IOException {
    org.apache.hadoop.fs.Path file =
        write(version, dictionary, false, CompressionCodecName.SNAPPY, 20_000);
    compareEveryColumn(file, version, dictionary, true);
  }

  private void compareEveryColumn(
      org.apache.hadoop.fs.Path file, WriterVersion version, boolean dictionary, boolean ids)
      throws IOException {
    Configuration conf = new Configuration();
    int[] dictionaryBatches = {0};
    int[] plainBatches = {0};
    Random random = new Random(version.ordinal() * 7 + (dictionary ? 1 : 0));
    try (ParquetFileReader bulk = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf));
        ParquetFileReader reference =
            ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
      assertThat(bulk.getRowGroups()).hasSizeGreaterThan(1);
      PageReadStore bulkGroup;
      while ((bulkGroup = bulk.readNextRowGroup()) != null) {
        PageReadStore referenceGroup = reference.readNextRowGroup();
        int rows = Math.toIntExact(bulkGroup.getRowCount());
        ColumnReadStoreImpl store =
            new ColumnReadStoreImpl(referenceGroup, new NoConverter(), SCHEMA, "test");
        for (ColumnDescriptor column : SCHEMA.getColumns()) {
          if (ids && !readsIds(column)) {
            continue;
          }
          FlatColumnReader<?> reader = reader(column, bulkGroup.getPageReader(column), 0, ids);
          ColumnReader expected = store.getColumnReader(column);
          int done = 0;
          while (done < rows) {
            int n = Math.min(rows - done, 1 + random.nextInt(3000));
            ColumnVector read = compare(column, reader, expected, n, done);
            // A batch of nulls only is a dictionary vector over an empty dictionary: not counted.
            if (read instanceof DictionaryVector d && d.dictionary().size() > 0) {
              dictionaryBatches[0]++;
            } else if (read instanceof BinaryVector) {
              plainBatches[0]++;
            }
            done += n;
          }
        }
      }
    }
    if (ids) {
      // With dictionary pages, the low-cardinality columns stay ids and the others fall back;
      // without, every batch meets a plain page at once.
      assertThat(dictionaryBatches[0] > 0).isEqualTo(dictionary);
      assertThat(plainBatches[0]).isPositive();
    } else {
      assertThat(dictionaryBatches[0]).isZero();
    }
  }

  @ParameterizedTest(name = "{0} dictionary={1}")
  @CsvSource({"PARQUET_1_0, true", "PARQUET_2_0, true", "PARQUET_1_0, false", "PARQUET_2_0, false"})
  void skippingLeadingRowsLandsOnTheRightValue(WriterVersion version, boolean dictionary)
      throws IOException {
    org.apache.hadoop.fs.Path file =
        write(version, dictionary, false, CompressionCodecName.SNAPPY, 5_000);
    Configuration conf = new Configuration();
    for (long skip : new long[] {1, 99, 1234, 4999}) {
      try (ParquetFileReader bulk = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf));
          ParquetFileReader reference =
              ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
        PageReadStore group = bulk.readNextRowGroup();
        PageReadStore referenceGroup = reference.readNextRowGroup();
        ColumnReadStoreImpl store =
            new ColumnReadStoreImpl(referenceGroup, new NoConverter(), SCHEMA, "test");
        int rows = (int) Math.min(group.getRowCount() - skip, 700);
        if (rows <= 0) {
          continue;
        }
        for (ColumnDescriptor column : SCHEMA.getColumns()) {
          FlatColumnReader<?> reader = reader(column, group.getPageReader(column), skip, false);
          ColumnReader expected = store.getColumnReader(column);
          for (long i = 0; i < skip; i++) {
            if (expected.getCurrentDefinitionLevel() == column.getMaxDefinitionLevel()) {
              expected.skip(); // only a defined entry has a value to skip
            }
            expected.consume();
          }
          compare(column, reader, expected, rows, (int) skip);
        }
      }
    }
  }

  private static boolean readsIds(ColumnDescriptor column) {
    return ColumnAdapters.readsDictionaryIds(
        column.getPrimitiveType(), LeafTypes.typeOf(column.getPrimitiveType()));
  }

  /** A reader of the column's pages standing on {@code firstRow}, over dictionary ids or not. */
  private static FlatColumnReader<?> reader(
      ColumnDescriptor column, PageReader pages, long row, boolean ids) {
    VectorArrayPool arrays = VectorArrayPool.none();
    DataType type = LeafTypes.typeOf(column.getPrimitiveType());
    FlatColumnReader<?> reader =
        FlatColumnReader.of(
            ids
                ? ColumnAdapters.dictionaryIds(type, arrays)
                : ColumnAdapters.forColumn(column.getPrimitiveType(), type, arrays),
            column.getMaxDefinitionLevel(),
            arrays);
    reader.bind(new ChunkPages(column, pages, null));
    reader.seek(row);
    return reader;
  }

  /** Reads {@code n} rows and checks each against the library's; returns the vector read. */
  private static ColumnVector compare(
      ColumnDescriptor column, FlatColumnReader<?> reader, ColumnReader expected, int n, int row) {
    int maxDef = column.getMaxDefinitionLevel();
    String what = column + " rows " + row + "+" + n;
    ColumnVector vector = reader.read(n);
    assertThat(vector.size()).isEqualTo(n);
    boolean[] nulls = vector.nullMask();
    // Row i's value against the library's current value, one comparison per physical type.
    IntPredicate matches =
        switch (column.getPrimitiveType().getPrimitiveTypeName()) {
          case INT32 -> i -> equal(((IntVector) vector).values()[i], expected.getInteger());
          case INT64 -> i -> equal(((LongVector) vector).values()[i], expected.getLong());
          case FLOAT -> i -> equal(((FloatVector) vector).values()[i], expected.getFloat());
          case DOUBLE -> i -> equal(((DoubleVector) vector).values()[i], expected.getDouble());
          case BOOLEAN -> i -> equal(((BooleanVector) vector).values()[i], expected.getBoolean());
          case BINARY, FIXED_LEN_BYTE_ARRAY -> i -> binary(vector, i).equals(expected.getBinary());
          default -> throw new AssertionError(column);
        };
    for (int i = 0; i < n; i++) {
      if (checkNull(expected, maxDef, nulls, i, what)) {
        check(matches.test(i), what, i);
      } else if (vector instanceof BinaryVector out) {
        assertThat(out.length(i)).isZero();
      }
      expected.consume();
    }
    return vector;
  }

  /** Row {@code i} of a plain or a dictionary vector. */
  private static Binary binary(ColumnVector vector, int i) {
    if (vector instanceof DictionaryVector ids) {
      return binary(ids.dictionary(), ids.id(i));
    }
    BinaryVector plain = (BinaryVector) vector;
    return Binary.fromConstantByteArray(plain.data(), plain.start(i), plain.length(i));
  }

  private static boolean checkNull(
      ColumnReader expected, int maxDef, boolean[] nulls, int i, String what) {
    boolean expectNull = expected.getCurrentDefinitionLevel() < maxDef;
    check((nulls != null && nulls[i]) == expectNull, what + " (null mask)", i);
    return !expectNull;
  }

  // Plain comparisons: an assertion object per value would dominate the test's run time.
  private static void check(boolean ok, String what, int i) {
    if (!ok) {
      throw new AssertionError(what + ": mismatch at row " + i);
    }
  }

  private static boolean equal(long a, long b) {
    return a == b;
  }

  private static boolean equal(double a, double b) {
    return Double.compare(a, b) == 0;
  }

  private static boolean equal(boolean a, boolean b) {
    return a == b;
  }

  private org.apache.hadoop.fs.Path write(
      WriterVersion version,
      boolean dictionary,
      boolean byteStreamSplit,
      CompressionCodecName codec,
      int rows)
      throws IOException {
    org.apache.hadoop.fs.Path file =
        new org.apache.hadoop.fs.Path(
            dir.resolve(
                    "flat-" + version + dictionary + byteStreamSplit + codec + rows + ".parquet")
                .toUri());
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    Random random = new Random(42);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(file)
            .withType(SCHEMA)
            .withWriterVersion(version)
            .withDictionaryEncoding(dictionary)
            .withByteStreamSplitEncoding(byteStreamSplit)
            .withCompressionCodec(codec)
            .withPageSize(4 * 1024)
            .withDictionaryPageSize(8 * 1024)
            .withRowGroupSize(96 * 1024L)
            .withPageRowCountLimit(1000)
            .build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        g.add("i32", random.nextInt(i % 3 == 0 ? 10 : Integer.MAX_VALUE) - 5);
        if (random.nextInt(4) != 0) {
          g.add("oi32", random.nextInt(100));
        }
        g.add("i64", i % 50 < 25 ? (long) i * 1_000_003L : random.nextLong());
        if (i % 7 != 0) {
          g.add("oi64", (long) (i / 10));
        }
        if (random.nextBoolean()) {
          g.add("f", random.nextFloat());
        }
        g.add("d", random.nextInt(20) * 0.5);
        if (i % 5 != 0) {
          g.add("b", random.nextBoolean());
        }
        g.add("rb", i % 3 == 0);
        if (random.nextInt(10) != 0) {
          g.add(
              "s",
              random.nextInt(3) == 0
                  ? "s" + random.nextInt(1_000_000)
                  : "low-" + random.nextInt(20));
        }
        g.add("rs", i % 100 == 0 ? "" : "v" + (i % 37));
        if (i % 4 != 0) {
          byte[] fixed = new byte[5];
          random.nextBytes(fixed);
          g.add("fx", Binary.fromConstantByteArray(fixed));
        }
        if (i % 1000 == 17) {
          g.add("sparse", (long) i);
        }
        writer.write(g);
      }
    }
    return file;
  }

  /** The column API needs a converter tree even when values are read straight off the readers. */
  private static final class NoConverter extends GroupConverter {
    private final List<Converter> children = new ArrayList<>();

    NoConverter() {
      for (int i = 0; i < SCHEMA.getFieldCount(); i++) {
        children.add(new PrimitiveConverter() {});
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children.get(fieldIndex);
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}
