package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.arrow.internal.ColumnPlan;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.StructVector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

/**
 * Walks a batch and the Arrow vectors it was converted to, value by value: the batch side through
 * {@code getObject} and the documented mapping, the Arrow side through Arrow's own typed getters (a
 * dictionary-encoded field through its index and the dictionary the provider holds).
 */
public final class ValueWalk {

  private ValueWalk() {}

  /** Asserts every value of every column of {@code root} equals the batch's through the mapping. */
  public static long assertSameValues(
      RecordBatch batch, VectorSchemaRoot root, ArrowMapping mapping) {
    return assertSameValues(batch, root, mapping, null);
  }

  /**
   * As {@link #assertSameValues(RecordBatch, VectorSchemaRoot, ArrowMapping)}, with the
   * dictionaries of the root's dictionary-encoded fields in {@code dictionaries}.
   */
  public static long assertSameValues(
      RecordBatch batch,
      VectorSchemaRoot root,
      ArrowMapping mapping,
      DictionaryProvider dictionaries) {
    assertThat(root.getRowCount()).isEqualTo(batch.rowCount());
    List<ColumnPlan> plans = mapping.plans();
    long values = 0;
    for (int c = 0; c < plans.size(); c++) {
      FieldVector arrow = root.getVector(c);
      ColumnVector ours = batch.column(c);
      for (int row = 0; row < batch.rowCount(); row++) {
        Object expected = expected(ours, row, plans.get(c));
        Object actual = actual(arrow, row, dictionaries);
        assertThat(actual)
            .as(
                "column %s row %d (file row %d)",
                batch.schema().field(c).name(), row, batch.firstRow() + row)
            .isEqualTo(expected);
        values++;
      }
    }
    return values;
  }

  /** The batch value at {@code row} as the Arrow side should hold it. */
  static Object expected(ColumnVector ours, int row, ColumnPlan plan) {
    if (plan.conversion() == ColumnPlan.Conversion.DENSE_UNION) {
      StructVector union = (StructVector) ours;
      if (union.isNull(row)) {
        return null;
      }
      int tag = (Byte) union.child(0).getObject(row);
      return expected(union.child(tag + 1), row, plan.children().get(tag));
    }
    if (ours.isNull(row)) {
      return null;
    }
    if (ours instanceof BinaryVector b) {
      return b.type().kind() == DataType.Kind.STRING
          ? b.getString(row)
          : ByteBuffer.wrap(b.getBytes(row));
    }
    if (ours instanceof DictionaryVector d) {
      return d.type().kind() == DataType.Kind.STRING
          ? d.getString(row)
          : ByteBuffer.wrap(d.getBytes(row));
    }
    if (ours instanceof ListVector list) {
      List<Object> out = new ArrayList<>();
      for (int i = list.start(row); i < list.start(row + 1); i++) {
        out.add(expected(list.elements(), i, plan.children().get(0)));
      }
      return out;
    }
    if (ours instanceof MapVector map) {
      ColumnPlan entries = plan.children().get(0);
      List<Object> out = new ArrayList<>();
      for (int i = map.start(row); i < map.start(row + 1); i++) {
        out.add(
            new AbstractMap.SimpleImmutableEntry<>(
                expected(map.keys(), i, entries.children().get(0)),
                expected(map.values(), i, entries.children().get(1))));
      }
      return out;
    }
    if (ours instanceof StructVector struct) {
      List<Object> out = new ArrayList<>();
      for (int f = 0; f < struct.children().size(); f++) {
        out.add(expected(struct.child(f), row, plan.children().get(f)));
      }
      return out;
    }
    return ours.getObject(row);
  }

  /**
   * The Arrow value at {@code row}, in the batch's boxed types; a dictionary-encoded vector's
   * through its dictionary in {@code dictionaries}.
   */
  public static Object actual(FieldVector v, int row, DictionaryProvider dictionaries) {
    DictionaryEncoding encoding = v.getField().getDictionary();
    if (encoding == null) {
      return actual(v, row);
    }
    assertThat(dictionaries).as("the provider of %s's dictionary", v.getName()).isNotNull();
    if (v.isNull(row)) {
      return null;
    }
    FieldVector dictionary = dictionaries.lookup(encoding.getId()).getVector();
    int index = ((IntVector) v).get(row);
    assertThat(index)
        .as("index of %s row %d", v.getName(), row)
        .isBetween(0, dictionary.getValueCount() - 1);
    return actual(dictionary, index);
  }

  /** The Arrow value at {@code row}, in the batch's boxed types. */
  public static Object actual(FieldVector v, int row) {
    assertThat(v.getField().getDictionary()).as("dictionary of %s", v.getName()).isNull();
    if (v instanceof DenseUnionVector union) {
      byte typeId = union.getTypeId(row);
      FieldVector child = union.getChildrenFromFields().get(typeId);
      return actual(child, union.getOffset(row));
    }
    if (v.isNull(row)) {
      return null;
    }
    if (v instanceof BitVector b) {
      return b.get(row) == 1;
    } else if (v instanceof TinyIntVector t) {
      return t.get(row);
    } else if (v instanceof SmallIntVector s) {
      return s.get(row);
    } else if (v instanceof IntVector i) {
      return i.get(row);
    } else if (v instanceof BigIntVector l) {
      return l.get(row);
    } else if (v instanceof UInt1Vector u) {
      return (short) (u.get(row) & 0xFF);
    } else if (v instanceof UInt2Vector u) {
      return (int) u.get(row);
    } else if (v instanceof UInt4Vector u) {
      return u.get(row) & 0xFFFF_FFFFL;
    } else if (v instanceof UInt8Vector u) {
      long bits = u.get(row);
      BigInteger value = BigInteger.valueOf(bits);
      if (bits < 0) {
        value = value.add(BigInteger.ONE.shiftLeft(64));
      }
      return new BigDecimal(value);
    } else if (v instanceof Float2Vector f) {
      return f.getValueAsFloat(row);
    } else if (v instanceof Float4Vector f) {
      return f.get(row);
    } else if (v instanceof Float8Vector d) {
      return d.get(row);
    } else if (v instanceof DecimalVector d) {
      return d.getObject(row);
    } else if (v instanceof Decimal256Vector d) {
      return d.getObject(row);
    } else if (v instanceof DateDayVector d) {
      return d.get(row);
    } else if (v instanceof TimeMilliVector t) {
      return (long) t.get(row);
    } else if (v instanceof TimeMicroVector t) {
      return t.get(row);
    } else if (v instanceof TimeNanoVector t) {
      return t.get(row);
    } else if (v instanceof TimeStampVector t) {
      return t.get(row);
    } else if (v instanceof VarCharVector s) {
      return new String(s.get(row), StandardCharsets.UTF_8);
    } else if (v instanceof VarBinaryVector b) {
      return ByteBuffer.wrap(b.get(row));
    } else if (v instanceof FixedSizeBinaryVector b) {
      return ByteBuffer.wrap(b.get(row));
    } else if (v instanceof org.apache.arrow.vector.complex.MapVector map) {
      org.apache.arrow.vector.complex.StructVector entries =
          (org.apache.arrow.vector.complex.StructVector) map.getDataVector();
      FieldVector keys = entries.getChildrenFromFields().get(0);
      FieldVector values = entries.getChildrenFromFields().get(1);
      List<Object> out = new ArrayList<>();
      for (int i = map.getElementStartIndex(row); i < map.getElementEndIndex(row); i++) {
        out.add(new AbstractMap.SimpleImmutableEntry<>(actual(keys, i), actual(values, i)));
      }
      return out;
    } else if (v instanceof org.apache.arrow.vector.complex.ListVector list) {
      FieldVector elements = list.getDataVector();
      List<Object> out = new ArrayList<>();
      for (int i = list.getElementStartIndex(row); i < list.getElementEndIndex(row); i++) {
        out.add(actual(elements, i));
      }
      return out;
    } else if (v instanceof org.apache.arrow.vector.complex.StructVector struct) {
      List<Object> out = new ArrayList<>();
      for (FieldVector child : struct.getChildrenFromFields()) {
        out.add(actual(child, row));
      }
      return out;
    }
    throw new AssertionError("no walk for " + v.getClass().getSimpleName());
  }
}
