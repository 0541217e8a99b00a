package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hand-built {@link DictionaryVector}s and plain vectors through dictionary-encoded and plain Arrow
 * fields: every value read back through Arrow's getters (a dictionary-encoded one through its index
 * and the converter's dictionary), the dictionary kept while batches share it and replaced when it
 * changes, and the C Data round trip of each batch.
 */
@Timeout(60)
class DictionaryConversionTest extends AllocatorTest {

  private static final DataFile FILE = DataFile.of(Path.of("hand-built.parquet"));

  /** A plain column, a string, a binary and a fixed-size binary column. */
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              new Field("id", DataType.int64(), false),
              new Field("s", DataType.string(), true),
              new Field("bin", DataType.binary(), true),
              new Field("fx", DataType.fixedBinary(3), true)));

  private static final List<String> ENCODED = List.of("s", "bin", "fx");

  private static BinaryVector dictionary(DataType type, String... values) {
    return binary(type, values, null);
  }

  /** Values as UTF-8 bytes; a null row (where {@code nulls} says) has an empty span. */
  private static BinaryVector binary(DataType type, String[] values, boolean[] nulls) {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    int[] offsets = new int[values.length + 1];
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        all.writeBytes(values[i].getBytes(StandardCharsets.UTF_8));
      }
      offsets[i + 1] = all.size();
    }
    return new BinaryVector(type, values.length, all.toByteArray(), offsets, nulls);
  }

  /** A vector of {@code ids} into {@code dictionary}; a negative id is a null row. */
  private static DictionaryVector encoded(BinaryVector dictionary, int... ids) {
    boolean[] nulls = new boolean[ids.length];
    int[] copy = new int[ids.length];
    boolean any = false;
    for (int i = 0; i < ids.length; i++) {
      nulls[i] = ids[i] < 0;
      any |= nulls[i];
      // A null row's id is unspecified: something out of range, which must not reach Arrow.
      copy[i] = ids[i] < 0 ? 1_000_000 : ids[i];
    }
    return new DictionaryVector(ids.length, copy, dictionary, any ? nulls : null);
  }

  /** A plain vector of {@code values}; a null entry is a null row. */
  private static BinaryVector plain(DataType type, String... values) {
    boolean[] nulls = new boolean[values.length];
    for (int i = 0; i < values.length; i++) {
      nulls[i] = values[i] == null;
    }
    return binary(type, values, nulls);
  }

  private static RecordBatch batch(
      long firstRow, ColumnVector s, ColumnVector bin, ColumnVector fx) {
    int rows = s.size();
    long[] ids = new long[rows];
    for (int i = 0; i < rows; i++) {
      ids[i] = firstRow + i;
    }
    return new RecordBatch(
        FILE,
        firstRow,
        rows,
        SCHEMA,
        List.of(new LongVector(DataType.int64(), rows, ids, null), s, bin, fx));
  }

  /** The chunk dictionaries of the tests: strings, binaries and 3-byte values. */
  private static final BinaryVector S1 = dictionary(DataType.string(), "apple", "", "cherry", "é");

  private static final BinaryVector B1 = dictionary(DataType.binary(), "x", "yy", "zzz");
  private static final BinaryVector F1 = dictionary(DataType.fixedBinary(3), "aaa", "bbb");
  private static final BinaryVector S2 = dictionary(DataType.string(), "delta", "echo");
  private static final BinaryVector B2 = dictionary(DataType.binary(), "", "0123456789");
  private static final BinaryVector F2 = dictionary(DataType.fixedBinary(3), "ccc", "ddd", "eee");

  private static RecordBatch firstChunkBatch(long firstRow) {
    return batch(
        firstRow,
        encoded(S1, 0, -1, 2, 1, 3, 0),
        encoded(B1, 2, 2, -1, 0, 1, 0),
        encoded(F1, 1, 0, 1, -1, -1, 0));
  }

  private static RecordBatch secondChunkBatch(long firstRow) {
    return batch(
        firstRow, encoded(S2, 1, 0, -1, 1), encoded(B2, 0, 1, 1, -1), encoded(F2, 2, -1, 0, 1));
  }

  private static RecordBatch plainBatch(long firstRow) {
    return batch(
        firstRow,
        plain(DataType.string(), "p", null, "q", "q", ""),
        plain(DataType.binary(), null, "raw", "", "raw", "x"),
        plain(DataType.fixedBinary(3), "fff", null, "ggg", null, "fff"));
  }

  private BatchConverter encodingConverter() {
    return ArrowBatches.converter(ArrowMapping.of(SCHEMA).dictionaryEncoded(ENCODED), allocator);
  }

  private static FieldVector dictionaryOf(BatchConverter converter, String column) {
    DictionaryEncoding encoding = converter.root().getVector(column).getField().getDictionary();
    return converter.lookup(encoding.getId()).getVector();
  }

  @Test
  void dictionaryVectorsArriveAsInt32IndicesIntoTheirDictionaryWithTheirNulls() {
    try (BatchConverter converter = encodingConverter()) {
      RecordBatch batch = firstChunkBatch(0);
      VectorSchemaRoot root = converter.convert(batch);

      org.apache.arrow.vector.types.pojo.Field s = converter.mapping().arrowSchema().findField("s");
      assertThat(s.getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
      assertThat(s.getDictionary().getIndexType()).isEqualTo(new ArrowType.Int(32, true));
      assertThat(s.getDictionary().isOrdered()).isFalse();
      assertThat(s.getDictionary().getId()).isEqualTo(1);
      assertThat(converter.mapping().arrowSchema().findField("id").getDictionary()).isNull();
      assertThat(converter.mapping().dictionaryEncodedColumns()).containsExactly("s", "bin", "fx");
      assertThat(converter.getDictionaryIds()).containsExactlyInAnyOrder(1L, 2L, 3L);

      IntVector indices = (IntVector) root.getVector("s");
      assertThat(indices.getNullCount()).isEqualTo(1);
      assertThat(indices.isNull(1)).isTrue();
      // A null row's unspecified id becomes 0, a valid index for a consumer that gathers blindly.
      assertThat(indices.getDataBuffer().getInt(4L * 1)).isZero();
      assertThat(List.of(indices.get(0), indices.get(2), indices.get(3), indices.get(4)))
          .containsExactly(0, 2, 1, 3);
      VarCharVector sValues = (VarCharVector) dictionaryOf(converter, "s");
      assertThat(sValues.getValueCount()).isEqualTo(4);
      assertThat(sValues.getNullCount()).isZero();
      assertThat(new String(sValues.get(3), StandardCharsets.UTF_8)).isEqualTo("é");
      assertThat(dictionaryOf(converter, "bin")).isInstanceOf(VarBinaryVector.class);
      assertThat(dictionaryOf(converter, "fx")).isInstanceOf(FixedSizeBinaryVector.class);

      assertThat(ValueWalk.assertSameValues(batch, root, converter.mapping(), converter))
          .isEqualTo(24);
    }
  }

  @Test
  void aDictionarySharedByTheNextBatchIsNotCopiedAgain() {
    BinaryVector chunk = dictionary(DataType.string(), "apple", "", "cherry", "é");
    try (BatchConverter converter = encodingConverter()) {
      converter.convert(
          batch(0, encoded(chunk, 0, -1, 2), encoded(B1, 0, 1, 2), encoded(F1, 0, 1, 0)));
      Dictionary before = converter.lookup(1);
      // The next batch of the same chunk: the same dictionary instance, other ids. Were the
      // dictionary copied again, the Arrow dictionary would now say "Xpple".
      chunk.data()[0] = 'X';
      RecordBatch next =
          batch(3, encoded(chunk, 3, 3, 0), encoded(B1, 1, -1, 0), encoded(F1, 0, 0, 1));
      VectorSchemaRoot root = converter.convert(next);
      assertThat(converter.lookup(1)).isSameAs(before);
      VarCharVector values = (VarCharVector) dictionaryOf(converter, "s");
      assertThat(new String(values.get(0), StandardCharsets.UTF_8)).isEqualTo("apple");
      IntVector indices = (IntVector) root.getVector("s");
      assertThat(List.of(indices.get(0), indices.get(1), indices.get(2))).containsExactly(3, 3, 0);
      assertThat(ValueWalk.actual(root.getVector("s"), 1, converter)).isEqualTo("é");
      assertThat(ValueWalk.actual(root.getVector("bin"), 0, converter))
          .isEqualTo(java.nio.ByteBuffer.wrap("yy".getBytes(StandardCharsets.UTF_8)));
      assertThat(ValueWalk.actual(root.getVector("bin"), 1, converter)).isNull();
    }
  }

  @Test
  void aNewDictionaryReplacesTheArrowDictionary() {
    try (BatchConverter converter = encodingConverter()) {
      RecordBatch first = firstChunkBatch(0);
      ValueWalk.assertSameValues(first, converter.convert(first), converter.mapping(), converter);
      RecordBatch second = secondChunkBatch(6);
      VectorSchemaRoot root = converter.convert(second);
      assertThat(dictionaryOf(converter, "s").getValueCount()).isEqualTo(2);
      assertThat(dictionaryOf(converter, "fx").getValueCount()).isEqualTo(3);
      assertThat(ValueWalk.assertSameValues(second, root, converter.mapping(), converter))
          .isEqualTo(16);
    }
  }

  @Test
  void aPlainBatchInADictionaryFieldBecomesADictionaryOfItsOwnValues() {
    try (BatchConverter converter = encodingConverter()) {
      RecordBatch first = firstChunkBatch(0);
      converter.convert(first);
      RecordBatch plain = plainBatch(6);
      VectorSchemaRoot root = converter.convert(plain);
      assertThat(ValueWalk.assertSameValues(plain, root, converter.mapping(), converter))
          .isEqualTo(20);
      // One entry per row, nulls' entries empty, the indices 0 to 4.
      VarCharVector values = (VarCharVector) dictionaryOf(converter, "s");
      assertThat(values.getValueCount()).isEqualTo(5);
      assertThat(values.getNullCount()).isZero();
      IntVector indices = (IntVector) root.getVector("s");
      assertThat(indices.isNull(1)).isTrue();
      assertThat(indices.get(4)).isEqualTo(4);
      FixedSizeBinaryVector fixed = (FixedSizeBinaryVector) dictionaryOf(converter, "fx");
      assertThat(fixed.get(1)).containsExactly(0, 0, 0);

      // The first chunk's dictionary again (its next batch): the Arrow dictionary holds the plain
      // batch's values, so it is loaded again.
      RecordBatch again = firstChunkBatch(11);
      assertThat(
              ValueWalk.assertSameValues(
                  again, converter.convert(again), converter.mapping(), converter))
          .isEqualTo(24);
    }
  }

  @Test
  void aDictionaryVectorInAPlainFieldIsExpanded() {
    ArrowMapping plainMapping = ArrowMapping.of(SCHEMA);
    try (BatchConverter converter = ArrowBatches.converter(plainMapping, allocator)) {
      for (RecordBatch batch : List.of(firstChunkBatch(0), secondChunkBatch(6), plainBatch(10))) {
        VectorSchemaRoot root = converter.convert(batch);
        assertThat(root.getVector("s")).isInstanceOf(VarCharVector.class);
        assertThat(root.getVector("fx")).isInstanceOf(FixedSizeBinaryVector.class);
        ValueWalk.assertSameValues(batch, root, plainMapping);
      }
      assertThat(converter.getDictionaryIds()).isEmpty();
    }
    RecordBatch batch = firstChunkBatch(0);
    try (VectorSchemaRoot root = ArrowBatches.toArrow(batch, allocator)) {
      assertThat(ValueWalk.assertSameValues(batch, root, plainMapping)).isEqualTo(24);
      FixedSizeBinaryVector fixed = (FixedSizeBinaryVector) root.getVector("fx");
      assertThat(fixed.isNull(3)).isTrue();
    }
  }

  @Test
  void aOneOffConversionHandsTheDictionariesToTheCallersProvider() {
    ArrowMapping mapping = ArrowMapping.of(SCHEMA).dictionaryEncoded(List.of("s"));
    RecordBatch batch = firstChunkBatch(0);
    assertThatThrownBy(() -> ArrowBatches.toArrow(batch, mapping, allocator))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[s]");
    try (DictionaryProvider.MapDictionaryProvider dictionaries =
            new DictionaryProvider.MapDictionaryProvider();
        VectorSchemaRoot root = ArrowBatches.toArrow(batch, mapping, allocator, dictionaries)) {
      assertThat(dictionaries.getDictionaryIds()).containsExactly(1L);
      assertThat(root.getVector("bin")).isInstanceOf(VarBinaryVector.class);
      assertThat(ValueWalk.assertSameValues(batch, root, mapping, dictionaries)).isEqualTo(24);
      assertThatThrownBy(() -> ArrowBatches.toArrow(batch, mapping, allocator, dictionaries))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("dictionary 1");
    }
  }

  @Test
  void onlyTopLevelStringAndBinaryColumnsOfTheSchemaCanBeEncoded() {
    ArrowMapping mapping = ArrowMapping.of(SCHEMA);
    assertThatThrownBy(() -> mapping.dictionaryEncoded(List.of("id")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column id");
    assertThatThrownBy(() -> mapping.dictionaryEncoded(List.of("nope")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no column nope");
    assertThat(mapping.dictionaryEncoded(List.of()).dictionaryEncodedColumns()).isEmpty();
  }

  /**
   * Each converted batch exported through the C Data Interface and imported back by Arrow Java's
   * importer reads the same values; a consumer still holding an earlier batch keeps its dictionary
   * when the converter replaces it.
   */
  @Test
  void theCDataRoundTripOfEachBatchReadsTheDictionaryArraysBack() {
    List<RecordBatch> batches =
        List.of(
            firstChunkBatch(0),
            firstChunkBatch(6),
            secondChunkBatch(12),
            plainBatch(16),
            secondChunkBatch(21));
    List<AutoCloseable> held = new ArrayList<>();
    try (BatchConverter converter = encodingConverter()) {
      VectorSchemaRoot firstImport = null;
      CDataDictionaryProvider firstDictionaries = null;
      for (RecordBatch batch : batches) {
        VectorSchemaRoot root = converter.convert(batch);
        CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
        held.add(dictionaries);
        VectorSchemaRoot imported;
        try (ArrowArray array = ArrowArray.allocateNew(allocator);
            ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
          Data.exportVectorSchemaRoot(allocator, root, converter, array, schema);
          imported = Data.importVectorSchemaRoot(allocator, array, schema, dictionaries);
        }
        held.add(0, imported);
        assertThat(imported.getVector("s").getField().getDictionary()).isNotNull();
        assertThat(ValueWalk.assertSameValues(batch, imported, converter.mapping(), dictionaries))
            .isEqualTo(4L * batch.rowCount());
        if (firstImport == null) {
          firstImport = imported;
          firstDictionaries = dictionaries;
        }
      }
      // The first import still reads the first chunk's values, after two replacements.
      assertThat(
              ValueWalk.assertSameValues(
                  batches.get(0), firstImport, converter.mapping(), firstDictionaries))
          .isEqualTo(24);
    } finally {
      for (AutoCloseable c : held) {
        try {
          c.close();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
    }
  }

  @Test
  void anAllNullChunkWithAnEmptyDictionaryAndAnEmptyBatchConvert() {
    BinaryVector none = dictionary(DataType.string());
    BinaryVector noBytes = dictionary(DataType.binary());
    BinaryVector noFixed = dictionary(DataType.fixedBinary(3));
    RecordBatch nulls =
        batch(
            0,
            encoded(none, -1, -1, -1),
            encoded(noBytes, -1, -1, -1),
            encoded(noFixed, -1, -1, -1));
    RecordBatch empty = batch(3, encoded(S1), encoded(B1), encoded(F1));
    try (BatchConverter converter = encodingConverter()) {
      VectorSchemaRoot root = converter.convert(nulls);
      assertThat(root.getVector("s").getNullCount()).isEqualTo(3);
      assertThat(dictionaryOf(converter, "s").getValueCount()).isZero();
      assertThat(ValueWalk.assertSameValues(nulls, root, converter.mapping(), converter))
          .isEqualTo(12);
      assertThat(converter.convert(empty).getRowCount()).isZero();
      try (ArrowArray array = ArrowArray.allocateNew(allocator);
          ArrowSchema schema = ArrowSchema.allocateNew(allocator);
          CDataDictionaryProvider dictionaries = new CDataDictionaryProvider()) {
        Data.exportVectorSchemaRoot(allocator, converter.convert(nulls), converter, array, schema);
        try (VectorSchemaRoot imported =
            Data.importVectorSchemaRoot(allocator, array, schema, dictionaries)) {
          assertThat(ValueWalk.assertSameValues(nulls, imported, converter.mapping(), dictionaries))
              .isEqualTo(12);
        }
      }
    }
    try (BatchConverter converter = ArrowBatches.converter(ArrowMapping.of(SCHEMA), allocator)) {
      ValueWalk.assertSameValues(nulls, converter.convert(nulls), converter.mapping());
    }
  }

  @Test
  void anIdOutsideTheDictionaryFailsTheConversionNamingTheRowAndLeaksNothing() {
    RecordBatch bad = batch(0, encoded(S1, 0, 1, 4), encoded(B1, 0, 1, 2), encoded(F1, 0, 1, 0));
    try (BatchConverter converter = encodingConverter()) {
      converter.convert(firstChunkBatch(0));
      assertThatThrownBy(() -> converter.convert(bad))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("dictionary id 4 at row 2");
      // The converter still converts the next good batch.
      RecordBatch good = secondChunkBatch(3);
      ValueWalk.assertSameValues(good, converter.convert(good), converter.mapping(), converter);
    }
    try (BatchConverter converter = ArrowBatches.converter(ArrowMapping.of(SCHEMA), allocator)) {
      assertThatThrownBy(() -> converter.convert(bad))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("dictionary id 4 at row 2");
    }
  }
}
