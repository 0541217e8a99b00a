package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Rows as comparable Java values: what parquet-hadoop's own Group reader returns (converted by the
 * documented type mapping), and what our reader returns ({@code getObject}, normalized). Binary
 * values become hex strings so that lists compare by value.
 */
final class Rows {

  private Rows() {}

  /** A scan: the rows and the first row index of each row, in order. */
  record Scan(List<List<Object>> rows, List<Long> rowIndexes, long batches) {}

  /** Reads with our reader, checking batch invariants on the way, releasing every batch. */
  static Scan read(Path file, ReadOptions options, ReadContext context) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    List<Long> indexes = new ArrayList<>();
    long batches = 0;
    try (BatchReader reader = Readers.open(file, options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        batches++;
        assertThat(batch.rowCount()).isPositive().isLessThanOrEqualTo(options.batchSize());
        assertThat(batch.file().path().getName()).isEqualTo(file.getFileName().toString());
        if (!indexes.isEmpty()) {
          assertThat(batch.firstRow()).isGreaterThan(indexes.get(indexes.size() - 1));
        }
        for (int r = 0; r < batch.rowCount(); r++) {
          List<Object> row = new ArrayList<>();
          for (int c = 0; c < batch.columns().size(); c++) {
            row.add(normalize(batch.column(c).getObject(r)));
          }
          rows.add(row);
          indexes.add(batch.firstRow() + r);
        }
        // The values are copied out: hand the arrays back, so that every parity check also
        // covers batches built in recycled arrays.
        batch.release();
      }
    }
    return new Scan(rows, indexes, batches);
  }

  static Object normalize(Object value) {
    if (value instanceof byte[] bytes) {
      return hex(bytes);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object element : list) {
        out.add(normalize(element));
      }
      return out;
    }
    if (value instanceof Map.Entry<?, ?> entry) {
      return new AbstractMap.SimpleImmutableEntry<>(
          normalize(entry.getKey()), normalize(entry.getValue()));
    }
    return value;
  }

  /** The indexes of the rows in {@code ranges}, in order. */
  static List<Long> indexes(List<dev.prefetch.RowRange> ranges) {
    List<Long> indexes = new ArrayList<>();
    for (dev.prefetch.RowRange range : ranges) {
      for (long r = range.start(); r < range.end(); r++) {
        indexes.add(r);
      }
    }
    return indexes;
  }

  /** Every row as parquet-hadoop's Group reader sees it, selected top-level fields only. */
  static List<List<Object>> expected(Path file, List<String> columns, FilterCompat.Filter filter)
      throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withFilter(filter == null ? FilterCompat.NOOP : filter)
            .build()) {
      for (Group group; (group = reader.read()) != null; ) {
        GroupType type = group.getType();
        List<Object> row = new ArrayList<>();
        if (columns.isEmpty()) {
          for (int f = 0; f < type.getFieldCount(); f++) {
            row.add(value(type, group, f));
          }
        } else {
          for (String column : columns) {
            row.add(path(type, group, column.split("\\.")));
          }
        }
        rows.add(row);
      }
    }
    return rows;
  }

  static List<List<Object>> expected(Path file) throws IOException {
    return expected(file, List.of(), null);
  }

  private static Object path(GroupType type, Group group, String[] path) {
    GroupType current = type;
    Group g = group;
    for (int i = 0; i < path.length - 1; i++) {
      int index = current.getFieldIndex(path[i]);
      if (g.getFieldRepetitionCount(index) == 0) {
        return null;
      }
      g = g.getGroup(index, 0);
      current = current.getType(index).asGroupType();
    }
    return value(current, g, current.getFieldIndex(path[path.length - 1]));
  }

  /** Field {@code field} of {@code parent}: null, a value, or a list for a repeated field. */
  static Object value(GroupType parentType, Group parent, int field) {
    Type type = parentType.getType(field);
    int count = parent.getFieldRepetitionCount(field);
    if (type.isRepetition(Type.Repetition.REPEATED)) {
      List<Object> out = new ArrayList<>();
      for (int k = 0; k < count; k++) {
        out.add(present(type, parent, field, k));
      }
      return out;
    }
    return count == 0 ? null : present(type, parent, field, 0);
  }

  private static Object present(Type type, Group parent, int field, int index) {
    if (type.isPrimitive()) {
      return primitive(type.asPrimitiveType(), parent, field, index);
    }
    GroupType groupType = type.asGroupType();
    Group group = parent.getGroup(field, index);
    LogicalTypeAnnotation logical = groupType.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation
        && groupType.getFieldCount() == 1
        && groupType.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      Type repeated = groupType.getType(0);
      List<Object> out = new ArrayList<>();
      for (int k = 0; k < group.getFieldRepetitionCount(0); k++) {
        if (repeated.isPrimitive()
            || repeated.asGroupType().getFieldCount() > 1
            || repeated.getName().equals("array")
            || repeated.getName().equals(groupType.getName() + "_tuple")) {
          out.add(present(repeated, group, 0, k));
        } else {
          out.add(value(repeated.asGroupType(), group.getGroup(0, k), 0));
        }
      }
      return out;
    }
    if ((logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)
        && groupType.getFieldCount() == 1
        && !groupType.getType(0).isPrimitive()
        && groupType.getType(0).asGroupType().getFieldCount() == 2) {
      GroupType entryType = groupType.getType(0).asGroupType();
      List<Object> out = new ArrayList<>();
      for (int k = 0; k < group.getFieldRepetitionCount(0); k++) {
        Group entry = group.getGroup(0, k);
        out.add(
            new AbstractMap.SimpleImmutableEntry<>(
                value(entryType, entry, 0), value(entryType, entry, 1)));
      }
      return out;
    }
    List<Object> out = new ArrayList<>();
    for (int f = 0; f < groupType.getFieldCount(); f++) {
      out.add(value(groupType, group, f));
    }
    return out;
  }

  private static Object primitive(PrimitiveType type, Group g, int field, int index) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return g.getBoolean(field, index);
      case INT32:
        {
          int v = g.getInteger(field, index);
          if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i) {
            if (i.isSigned()) {
              return i.getBitWidth() == 8
                  ? (Object) (byte) v
                  : i.getBitWidth() == 16 ? (Object) (short) v : (Object) v;
            }
            return i.getBitWidth() == 8
                ? (Object) (short) v
                : i.getBitWidth() == 16 ? (Object) v : (Object) Integer.toUnsignedLong(v);
          }
          if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return BigDecimal.valueOf(v, d.getScale());
          }
          if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
            return (long) v;
          }
          return v;
        }
      case INT64:
        {
          long v = g.getLong(field, index);
          if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
              && !i.isSigned()) {
            return new BigDecimal(new BigInteger(Long.toUnsignedString(v)), 0);
          }
          if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return BigDecimal.valueOf(v, d.getScale());
          }
          return v;
        }
      case INT96:
        {
          ByteBuffer buffer =
              ByteBuffer.wrap(g.getInt96(field, index).getBytes()).order(ByteOrder.LITTLE_ENDIAN);
          long nanosOfDay = buffer.getLong();
          long julianDay = buffer.getInt();
          // microseconds, the default mapping
          return (julianDay - 2_440_588L) * 86_400_000_000L + Math.floorDiv(nanosOfDay, 1000L);
        }
      case FLOAT:
        return g.getFloat(field, index);
      case DOUBLE:
        return g.getDouble(field, index);
      default:
        {
          byte[] bytes = g.getBinary(field, index).getBytes();
          if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
              || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
              || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
          }
          if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return new BigDecimal(
                bytes.length == 0 ? BigInteger.ZERO : new BigInteger(bytes), d.getScale());
          }
          if (logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation
              && bytes.length == 2) {
            return half((bytes[0] & 0xFF) | (bytes[1] & 0xFF) << 8);
          }
          return hex(bytes);
        }
    }
  }

  /** Half precision by arithmetic, independent of the reader's bit manipulation. */
  private static float half(int bits) {
    int sign = (bits & 0x8000) != 0 ? -1 : 1;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    if (exponent == 0x1F) {
      return mantissa == 0 ? sign * Float.POSITIVE_INFINITY : Float.NaN;
    }
    if (exponent == 0) {
      return sign * Math.scalb((float) mantissa, -24);
    }
    return sign * Math.scalb(1f + mantissa / 1024f, exponent - 15);
  }

  static String hex(byte[] bytes) {
    return "0x" + HexFormat.of().formatHex(bytes);
  }
}
