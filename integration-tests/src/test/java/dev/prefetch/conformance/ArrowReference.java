package dev.prefetch.conformance;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import dev.prefetch.testkit.baseline.ValueSink;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.dataset.source.DatasetFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Arrow C++'s own Parquet and ORC readers (through arrow-dataset's JNI), their values taken through
 * our type mapping into the canonical form: an independent reference that decodes and decompresses
 * every page itself.
 *
 * <p>Where Arrow's mapping differs from ours the value is converted to ours: a finer timestamp unit
 * to ours (floor), a half float widened, UINT64 as the unsigned value's bytes (our DECIMAL(20, 0)),
 * a dense union as our struct of the tag and every alternative (only the tag's non-null).
 */
public final class ArrowReference {

  private ArrowReference() {}

  /**
   * Reads {@code file} with Arrow C++ and feeds every value of every column, converted to the types
   * of {@code ours} (our reader's schema of the file), to {@code sink}. Column names must match
   * ours.
   */
  public static void read(Path file, String format, Schema ours, ValueSink sink) throws Exception {
    FileFormat arrowFormat = format.equals("orc") ? FileFormat.ORC : FileFormat.PARQUET;
    try (BufferAllocator allocator = new RootAllocator();
        DatasetFactory factory =
            new FileSystemDatasetFactory(
                allocator, NativeMemoryPool.getDefault(), arrowFormat, file.toUri().toString());
        Dataset dataset = factory.finish();
        Scanner scanner = dataset.newScan(new ScanOptions(1 << 15));
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        List<FieldVector> vectors = root.getFieldVectors();
        if (vectors.size() != ours.size()) {
          throw new IllegalStateException(
              "Arrow reads "
                  + vectors.size()
                  + " columns, we "
                  + ours.size()
                  + ": "
                  + root.getSchema());
        }
        for (int c = 0; c < vectors.size(); c++) {
          Field field = ours.field(c);
          if (!vectors.get(c).getName().equals(field.name())) {
            throw new IllegalStateException(
                "Arrow names column "
                    + c
                    + " '"
                    + vectors.get(c).getName()
                    + "', we '"
                    + field.name()
                    + "'");
          }
          for (int r = 0; r < root.getRowCount(); r++) {
            sink.startRow(c);
            feed(vectors.get(c), r, field.type(), c, sink);
          }
        }
      }
    }
  }

  private static void feed(ValueVector v, int i, DataType type, int column, ValueSink sink) {
    if (v instanceof NullVector
        || v.isNull(i) && !(v instanceof DenseUnionVector) && !(v instanceof UnionVector)) {
      sink.addNull(column);
      return;
    }
    if (v instanceof DenseUnionVector u) {
      union(u, i, type, column, sink);
    } else if (v instanceof UnionVector u) {
      sparseUnion(u, i, type, column, sink);
    } else if (v instanceof BitVector b) {
      sink.addLong(column, b.get(i));
    } else if (v instanceof UInt8Vector u) {
      byte[] bytes = new BigInteger(Long.toUnsignedString(u.get(i))).toByteArray();
      sink.addBytes(column, bytes, 0, bytes.length);
    } else if (v instanceof TimeStampVector t) {
      sink.addLong(column, time(t.get(i), unitOf(t), type));
    } else if (v instanceof DateDayVector d) {
      sink.addLong(column, d.get(i));
    } else if (v instanceof DateMilliVector d) {
      sink.addLong(column, Math.floorDiv(d.get(i), 86_400_000L));
    } else if (v instanceof TimeSecVector t) {
      sink.addLong(column, time(t.get(i), 1_000_000_000L, type));
    } else if (v instanceof TimeMilliVector t) {
      sink.addLong(column, time(t.get(i), 1_000_000L, type));
    } else if (v instanceof TimeMicroVector t) {
      sink.addLong(column, time(t.get(i), 1_000L, type));
    } else if (v instanceof TimeNanoVector t) {
      sink.addLong(column, time(t.get(i), 1L, type));
    } else if (v instanceof BaseIntVector n) {
      // signed and unsigned (UInt1, UInt2, UInt4 as their unsigned value) integers
      sink.addLong(column, n.getValueAsLong(i));
    } else if (v instanceof FloatingPointVector f) {
      sink.addDouble(column, f.getValueAsDouble(i));
    } else if (v instanceof DecimalVector || v instanceof Decimal256Vector) {
      decimal((BigDecimal) v.getObject(i), type, column, sink);
    } else if (v instanceof FixedSizeBinaryVector b) {
      byte[] bytes = b.get(i);
      sink.addBytes(column, bytes, 0, bytes.length);
    } else if (v instanceof VariableWidthFieldVector b) {
      byte[] bytes = b.get(i);
      sink.addBytes(column, bytes, 0, bytes.length);
    } else if (v instanceof MapVector m) {
      StructVector entries = (StructVector) m.getDataVector();
      int start = m.getElementStartIndex(i);
      int end = m.getElementEndIndex(i);
      sink.addLong(column, end - start);
      for (int e = start; e < end; e++) {
        feed(entries.getChildByOrdinal(0), e, child(type, 0), column, sink);
        feed(entries.getChildByOrdinal(1), e, child(type, 1), column, sink);
      }
    } else if (v instanceof ListVector l) {
      int start = l.getElementStartIndex(i);
      int end = l.getElementEndIndex(i);
      sink.addLong(column, end - start);
      for (int e = start; e < end; e++) {
        feed(l.getDataVector(), e, child(type, 0), column, sink);
      }
    } else if (v instanceof LargeListVector l) {
      int start = Math.toIntExact(l.getElementStartIndex(i));
      int end = Math.toIntExact(l.getElementEndIndex(i));
      sink.addLong(column, end - start);
      for (int e = start; e < end; e++) {
        feed(l.getDataVector(), e, child(type, 0), column, sink);
      }
    } else if (v instanceof StructVector s) {
      for (int f = 0; f < s.size(); f++) {
        feed(s.getChildByOrdinal(f), i, child(type, f), column, sink);
      }
    } else {
      throw new IllegalStateException("no conversion of Arrow " + v.getField());
    }
  }

  /**
   * Our type of child {@code i} of {@code type}, or null where Arrow's shape is not ours (a
   * reference that disagrees; its values are then fed as Arrow has them).
   */
  private static DataType child(DataType type, int i) {
    if (type == null || !type.kind().isNested() || type.children().size() <= i) {
      return null;
    }
    return type.children().get(i).type();
  }

  /** Our union struct: the tag, then every alternative, null but the tag's. */
  private static void union(DenseUnionVector u, int i, DataType type, int column, ValueSink sink) {
    if (u.isNull(i)) {
      sink.addNull(column);
      return;
    }
    byte typeId = u.getTypeId(i);
    ValueVector chosen = u.getVectorByType(typeId);
    int alternatives = u.getField().getChildren().size();
    sink.addLong(column, typeId);
    for (int alternative = 0; alternative < alternatives; alternative++) {
      if (alternative == typeId) {
        feed(chosen, u.getOffset(i), child(type, alternative + 1), column, sink);
      } else {
        sink.addNull(column);
      }
    }
  }

  /** A sparse union (Arrow C++'s ORC reader makes these): children indexed by row. */
  private static void sparseUnion(UnionVector u, int i, DataType type, int column, ValueSink sink) {
    if (u.isNull(i)) {
      sink.addNull(column);
      return;
    }
    int typeId = u.getTypeValue(i);
    int alternatives = u.getField().getChildren().size();
    sink.addLong(column, typeId);
    for (int alternative = 0; alternative < alternatives; alternative++) {
      if (alternative == typeId) {
        feed(u.getVectorByType(typeId), i, child(type, alternative + 1), column, sink);
      } else {
        sink.addNull(column);
      }
    }
  }

  private static void decimal(BigDecimal value, DataType type, int column, ValueSink sink) {
    BigInteger unscaled =
        type == null ? value.unscaledValue() : value.setScale(type.scale()).unscaledValue();
    if (type != null && type.precision() <= DataType.MAX_LONG_DECIMAL_PRECISION) {
      sink.addLong(column, unscaled.longValueExact());
    } else {
      byte[] bytes = unscaled.toByteArray();
      sink.addBytes(column, bytes, 0, bytes.length);
    }
  }

  /** Nanoseconds per unit of an Arrow timestamp vector. */
  private static long unitOf(TimeStampVector t) {
    TimeUnit unit = ((ArrowType.Timestamp) t.getField().getType()).getUnit();
    switch (unit) {
      case SECOND:
        return 1_000_000_000L;
      case MILLISECOND:
        return 1_000_000L;
      case MICROSECOND:
        return 1_000L;
      default:
        return 1L;
    }
  }

  /** A time value in our type's unit; as Arrow has it where our type has no unit. */
  private static long time(long value, long nanosPerUnit, DataType type) {
    return type == null || type.timeUnit() == null
        ? value
        : convert(value, nanosPerUnit, type.timeUnit());
  }

  /** {@code value} in units of {@code nanosPerUnit} nanoseconds, in {@code ours} (floor). */
  private static long convert(long value, long nanosPerUnit, DataType.TimeUnit ours) {
    long oursNanos =
        ours == DataType.TimeUnit.MILLIS
            ? 1_000_000L
            : ours == DataType.TimeUnit.MICROS ? 1_000L : 1L;
    if (nanosPerUnit == oursNanos) {
      return value;
    }
    if (nanosPerUnit < oursNanos) {
      return Math.floorDiv(value, oursNanos / nanosPerUnit);
    }
    return Math.multiplyExact(value, nanosPerUnit / oursNanos);
  }
}
