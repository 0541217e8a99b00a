package dev.prefetch.orc;

import dev.prefetch.BatchReader;
import dev.prefetch.RowRange;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.batch.StructVector;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

/**
 * Rows in a canonical form (file row number and one Java value per column), from orc-core's own
 * reader or from ours, so that the two can be compared value for value.
 *
 * <p>Canonical values: integers and dates as Long, float as Float, double as Double, strings as
 * String, binary as hex, decimals as BigDecimal at the column's scale, timestamps as LocalDateTime
 * (wall clock) or Instant (with local time zone), lists as List, maps as lists of [key, value],
 * structs as lists of fields, unions as [tag, field0, field1, ...].
 */
public final class Rows {

  /** One row: its file row number and its values. */
  public record Row(long row, List<Object> values) {}

  private Rows() {}

  /** Every row (or the selected ones) of our reader. */
  public static List<Row> ours(BatchReader reader) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (RecordBatch batch; (batch = reader.next()) != null; ) {
      for (int r = 0; r < batch.rowCount(); r++) {
        List<Object> values = new ArrayList<>(batch.columns().size());
        for (ColumnVector column : batch.columns()) {
          values.add(ours(column, r));
        }
        rows.add(new Row(batch.firstRow() + r, values));
      }
    }
    return rows;
  }

  public static Object ours(ColumnVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    DataType type = v.type();
    if (v instanceof BooleanVector b) {
      return b.get(i);
    } else if (v instanceof ByteVector b) {
      return (long) b.get(i);
    } else if (v instanceof ShortVector s) {
      return (long) s.get(i);
    } else if (v instanceof IntVector n) {
      return (long) n.get(i);
    } else if (v instanceof LongVector l) {
      if (type.kind() == DataType.Kind.TIMESTAMP) {
        long nanos = l.get(i);
        long seconds = Math.floorDiv(nanos, 1_000_000_000L);
        int nano = (int) Math.floorMod(nanos, 1_000_000_000L);
        return type.utcAdjusted()
            ? Instant.ofEpochSecond(seconds, nano)
            : LocalDateTime.ofEpochSecond(seconds, nano, ZoneOffset.UTC);
      }
      return l.get(i);
    } else if (v instanceof FloatVector f) {
      return f.get(i);
    } else if (v instanceof DoubleVector d) {
      return d.get(i);
    } else if (v instanceof BinaryVector b) {
      return type.kind() == DataType.Kind.STRING
          ? b.getString(i)
          : HexFormat.of().formatHex(b.getBytes(i));
    } else if (v instanceof dev.prefetch.batch.DictionaryVector d) {
      return type.kind() == DataType.Kind.STRING
          ? d.getString(i)
          : HexFormat.of().formatHex(d.getBytes(i));
    } else if (v instanceof DecimalVector d) {
      return d.getDecimal(i);
    } else if (v instanceof ListVector l) {
      List<Object> out = new ArrayList<>();
      for (int k = l.start(i); k < l.start(i) + l.length(i); k++) {
        out.add(ours(l.elements(), k));
      }
      return out;
    } else if (v instanceof MapVector m) {
      List<Object> out = new ArrayList<>();
      for (int k = m.start(i); k < m.start(i) + m.length(i); k++) {
        out.add(Arrays.asList(ours(m.keys(), k), ours(m.values(), k)));
      }
      return out;
    } else if (v instanceof StructVector s) {
      List<Object> out = new ArrayList<>();
      for (ColumnVector child : s.children()) {
        out.add(ours(child, i));
      }
      return out;
    }
    throw new AssertionError("unexpected vector " + v.getClass());
  }

  /**
   * orc-core's own rows of {@code file}: the columns (top-level or dotted paths; empty for all),
   * with {@code sarg} pushed down as orc-core does it, and only rows in {@code rowRanges}.
   */
  public static List<Row> reference(
      java.nio.file.Path file,
      List<String> columns,
      SearchArgument sarg,
      Configuration conf,
      List<RowRange> rowRanges)
      throws IOException {
    List<Row> rows = new ArrayList<>();
    try (Reader reader =
        OrcFile.createReader(new Path(file.toUri()), OrcFile.readerOptions(conf))) {
      TypeDescription schema = reader.getSchema();
      List<String> names = columns.isEmpty() ? schema.getFieldNames() : columns;
      List<int[]> paths = new ArrayList<>();
      List<TypeDescription> types = new ArrayList<>();
      for (String name : names) {
        int top = schema.getFieldNames().indexOf(name);
        int[] path;
        if (top >= 0) {
          path = new int[] {top};
        } else {
          String[] parts = name.split("\\.");
          path = new int[parts.length];
          TypeDescription t = schema;
          for (int i = 0; i < parts.length; i++) {
            path[i] = t.getFieldNames().indexOf(parts[i]);
            t = t.getChildren().get(path[i]);
          }
        }
        TypeDescription t = schema;
        for (int step : path) {
          t = t.getChildren().get(step);
        }
        paths.add(path);
        types.add(t);
      }
      Reader.Options options = reader.options();
      if (sarg != null) {
        options.searchArgument(sarg, schema.getFieldNames().toArray(new String[0]));
      }
      try (RecordReader records = reader.rows(options)) {
        VectorizedRowBatch batch = schema.createRowBatch(1000);
        while (true) {
          long first = records.getRowNumber();
          if (!records.nextBatch(batch)) {
            break;
          }
          int count = batch.selectedInUse ? batch.size : batch.size;
          for (int k = 0; k < count; k++) {
            int r = batch.selectedInUse ? batch.selected[k] : k;
            long row = first + r;
            if (rowRanges != null && !inside(rowRanges, row)) {
              continue;
            }
            List<Object> values = new ArrayList<>();
            for (int c = 0; c < paths.size(); c++) {
              int[] path = paths.get(c);
              org.apache.hadoop.hive.ql.exec.vector.ColumnVector v = batch.cols[path[0]];
              boolean isNull = isNull(v, r);
              for (int i = 1; i < path.length && !isNull; i++) {
                v = ((StructColumnVector) v).fields[path[i]];
                isNull = isNull(v, r);
              }
              values.add(isNull ? null : reference(types.get(c), v, r));
            }
            rows.add(new Row(row, values));
          }
        }
      }
    }
    return rows;
  }

  private static boolean inside(List<RowRange> ranges, long row) {
    for (RowRange range : ranges) {
      if (row >= range.start() && row < range.end()) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNull(org.apache.hadoop.hive.ql.exec.vector.ColumnVector v, int r) {
    int i = v.isRepeating ? 0 : r;
    return !v.noNulls && v.isNull[i];
  }

  /** orc-core's value of row {@code r} of {@code v}, a vector of {@code type}, canonical. */
  public static Object reference(
      TypeDescription type, org.apache.hadoop.hive.ql.exec.vector.ColumnVector v, int r) {
    if (isNull(v, r)) {
      return null;
    }
    int i = v.isRepeating ? 0 : r;
    switch (type.getCategory()) {
      case BOOLEAN:
        return ((LongColumnVector) v).vector[i] != 0;
      case BYTE:
      case SHORT:
      case INT:
      case LONG:
      case DATE:
        return ((LongColumnVector) v).vector[i];
      case FLOAT:
        return (float) ((DoubleColumnVector) v).vector[i];
      case DOUBLE:
        return ((DoubleColumnVector) v).vector[i];
      case STRING:
      case CHAR:
      case VARCHAR:
        {
          BytesColumnVector b = (BytesColumnVector) v;
          return new String(b.vector[i], b.start[i], b.length[i], StandardCharsets.UTF_8);
        }
      case BINARY:
        {
          BytesColumnVector b = (BytesColumnVector) v;
          return HexFormat.of()
              .formatHex(Arrays.copyOfRange(b.vector[i], b.start[i], b.start[i] + b.length[i]));
        }
      case DECIMAL:
        {
          BigDecimal value = ((DecimalColumnVector) v).vector[i].getHiveDecimal().bigDecimalValue();
          return value.setScale(type.getScale());
        }
      case TIMESTAMP:
        return ((TimestampColumnVector) v).asScratchTimestamp(i).toLocalDateTime();
      case TIMESTAMP_INSTANT:
        return ((TimestampColumnVector) v).asScratchTimestamp(i).toInstant();
      case LIST:
        {
          ListColumnVector l = (ListColumnVector) v;
          List<Object> out = new ArrayList<>();
          for (long k = l.offsets[i]; k < l.offsets[i] + l.lengths[i]; k++) {
            out.add(reference(type.getChildren().get(0), l.child, (int) k));
          }
          return out;
        }
      case MAP:
        {
          MapColumnVector m = (MapColumnVector) v;
          List<Object> out = new ArrayList<>();
          for (long k = m.offsets[i]; k < m.offsets[i] + m.lengths[i]; k++) {
            out.add(
                Arrays.asList(
                    reference(type.getChildren().get(0), m.keys, (int) k),
                    reference(type.getChildren().get(1), m.values, (int) k)));
          }
          return out;
        }
      case STRUCT:
        {
          StructColumnVector s = (StructColumnVector) v;
          List<Object> out = new ArrayList<>();
          for (int f = 0; f < s.fields.length; f++) {
            out.add(reference(type.getChildren().get(f), s.fields[f], r));
          }
          return out;
        }
      case UNION:
        {
          UnionColumnVector u = (UnionColumnVector) v;
          int tag = u.tags[i];
          List<Object> out = new ArrayList<>();
          out.add((long) tag);
          for (int f = 0; f < u.fields.length; f++) {
            out.add(f == tag ? reference(type.getChildren().get(f), u.fields[f], r) : null);
          }
          return out;
        }
      default:
        throw new AssertionError("unexpected type " + type);
    }
  }
}
