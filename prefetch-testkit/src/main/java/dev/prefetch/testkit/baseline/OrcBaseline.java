package dev.prefetch.testkit.baseline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
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
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

/**
 * orc-core's own vectorized reader: a {@link RecordReader} filling {@link VectorizedRowBatch}es,
 * with every value of every selected column touched and fed to the checksum in the canonical form
 * of {@link dev.prefetch.testing.Checksum}.
 *
 * <p>Timestamps are fed as nanoseconds since the epoch in UTC (the file is read with UTC
 * timestamps), decimals as unscaled values at the column's declared scale.
 */
public final class OrcBaseline {

  private static final int BATCH_ROWS = 1024;

  private OrcBaseline() {}

  /**
   * Reads every value of the selected top-level columns (all when {@code columns} is empty).
   *
   * @param sarg a search argument for stripe and row-group pruning, as orc-core applies it, or null
   * @param selection the file rows to read, or null for all (not with a search argument)
   */
  public static BaselineResult scan(
      Path path,
      Configuration conf,
      List<String> columns,
      SearchArgument sarg,
      dev.prefetch.RowRange selection,
      boolean perColumn)
      throws IOException {
    return scan(path, conf, columns, sarg, selection, perColumn, null);
  }

  /**
   * As {@link #scan(Path, Configuration, List, SearchArgument, dev.prefetch.RowRange, boolean)},
   * also feeding every value to {@code probe} when not null.
   */
  public static BaselineResult scan(
      Path path,
      Configuration conf,
      List<String> columns,
      SearchArgument sarg,
      dev.prefetch.RowRange selection,
      boolean perColumn,
      ValueSink probe)
      throws IOException {
    try (Reader reader =
        OrcFile.createReader(path, OrcFile.readerOptions(conf).useUTCTimestamp(true))) {
      TypeDescription schema = reader.getSchema();
      if (schema.getCategory() != TypeDescription.Category.STRUCT) {
        return scanNonStructRoot(path, reader, columns, selection, perColumn, probe);
      }
      List<String> names = new ArrayList<>();
      List<Integer> topIndexes = new ArrayList<>();
      if (columns.isEmpty()) {
        names.addAll(schema.getFieldNames());
        for (int i = 0; i < names.size(); i++) {
          topIndexes.add(i);
        }
      } else {
        for (String name : columns) {
          int i = schema.getFieldNames().indexOf(name);
          if (i < 0) {
            throw new IllegalArgumentException(path + ": no column '" + name + "'");
          }
          names.add(name);
          topIndexes.add(i);
        }
      }
      boolean[] include = new boolean[schema.getMaximumId() + 1];
      include[0] = true;
      for (int i : topIndexes) {
        TypeDescription child = schema.getChildren().get(i);
        for (int id = child.getId(); id <= child.getMaximumId(); id++) {
          include[id] = true;
        }
      }
      Reader.Options options = reader.options().include(include).useSelected(false);
      if (sarg != null) {
        options.searchArgument(sarg, new String[0]);
      }
      ColumnChecksums checksums = new ColumnChecksums(names.size(), perColumn);
      ValueSink sums = Tee.of(checksums, probe);
      VectorizedRowBatch batch = schema.createRowBatch(BATCH_ROWS);
      long batches = 0;
      try (RecordReader rows = reader.rows(options)) {
        long remaining = Long.MAX_VALUE;
        if (selection != null) {
          long start = Math.min(selection.start(), reader.getNumberOfRows());
          rows.seekToRow(start);
          remaining = Math.max(0, Math.min(selection.end(), reader.getNumberOfRows()) - start);
        }
        while (remaining > 0 && rows.nextBatch(batch)) {
          batches++;
          int size = (int) Math.min(batch.size, remaining);
          remaining -= size;
          for (int c = 0; c < topIndexes.size(); c++) {
            ColumnVector vector = batch.cols[topIndexes.get(c)];
            TypeDescription type = schema.getChildren().get(topIndexes.get(c));
            feedColumn(vector, type, size, c, sums);
          }
          checksums.addRows(size);
        }
      }
      return new BaselineResult(
          checksums.rows(),
          batches,
          names.size(),
          checksums.value(),
          checksums.columnValues(),
          names);
    }
  }

  /**
   * A file whose root type is not a struct: one column, named as the reader names it, which
   * orc-core reads into column 0 of its batch.
   */
  private static BaselineResult scanNonStructRoot(
      Path path,
      Reader reader,
      List<String> columns,
      dev.prefetch.RowRange selection,
      boolean perColumn,
      ValueSink probe)
      throws IOException {
    String name = dev.prefetch.orc.internal.OrcTypes.NON_STRUCT_ROOT_COLUMN;
    for (String c : columns) {
      if (!c.equals(name)) {
        throw new IllegalArgumentException(path + ": no column '" + c + "'");
      }
    }
    TypeDescription schema = reader.getSchema();
    ColumnChecksums checksums = new ColumnChecksums(1, perColumn);
    ValueSink sums = Tee.of(checksums, probe);
    VectorizedRowBatch batch = schema.createRowBatch(BATCH_ROWS);
    long batches = 0;
    try (RecordReader rows = reader.rows(reader.options())) {
      long skip = selection == null ? 0 : selection.start();
      long remaining = selection == null ? Long.MAX_VALUE : selection.end() - selection.start();
      while (remaining > 0 && rows.nextBatch(batch)) {
        batches++;
        int from = (int) Math.min(batch.size, skip);
        skip -= from;
        int size = (int) Math.min(batch.size - from, remaining);
        remaining -= size;
        for (int i = from; i < from + size; i++) {
          sums.startRow(0);
          feedValue(batch.cols[0], schema, i, 0, sums);
        }
        checksums.addRows(size);
      }
    }
    return new BaselineResult(
        checksums.rows(), batches, 1, checksums.value(), checksums.columnValues(), List.of(name));
  }

  /** Feeds rows {@code [0, size)} of a top-level vector; a tight loop for the flat common kinds. */
  private static void feedColumn(
      ColumnVector vector, TypeDescription type, int size, int column, ValueSink sums) {
    if (vector instanceof LongColumnVector v && !v.isRepeating) {
      long[] values = v.vector;
      for (int i = 0; i < size; i++) {
        sums.startRow(column);
        if (!v.noNulls && v.isNull[i]) {
          sums.addNull(column);
        } else {
          sums.addLong(column, values[i]);
        }
      }
      return;
    }
    if (vector instanceof DoubleColumnVector v && !v.isRepeating) {
      double[] values = v.vector;
      for (int i = 0; i < size; i++) {
        sums.startRow(column);
        if (!v.noNulls && v.isNull[i]) {
          sums.addNull(column);
        } else {
          sums.addDouble(column, values[i]);
        }
      }
      return;
    }
    for (int i = 0; i < size; i++) {
      sums.startRow(column);
      feedValue(vector, type, i, column, sums);
    }
  }

  /** Feeds value {@code row} of any vector, nested ones recursively. */
  private static void feedValue(
      ColumnVector vector, TypeDescription type, int row, int column, ValueSink sums) {
    int i = vector.isRepeating ? 0 : row;
    if (!vector.noNulls && vector.isNull[i]) {
      sums.addNull(column);
      return;
    }
    switch (type.getCategory()) {
      case BOOLEAN, BYTE, SHORT, INT, LONG, DATE ->
          sums.addLong(column, ((LongColumnVector) vector).vector[i]);
      case FLOAT, DOUBLE -> {
        double d = ((DoubleColumnVector) vector).vector[i];
        // A float column's doubles were widened from floats; narrowing back is exact.
        sums.addDouble(
            column, type.getCategory() == TypeDescription.Category.FLOAT ? (float) d : d);
      }
      case STRING, VARCHAR, CHAR, BINARY -> {
        BytesColumnVector v = (BytesColumnVector) vector;
        sums.addBytes(column, v.vector[i], v.start[i], v.length[i]);
      }
      case DECIMAL -> feedDecimal(vector, type, i, column, sums);
      case TIMESTAMP, TIMESTAMP_INSTANT -> {
        // time holds the second's milliseconds plus those of nanos, whose sign is kept: a
        // negative nanos (Arrow's ORC adapter writes one before 1970) counts back from its second
        TimestampColumnVector v = (TimestampColumnVector) vector;
        int nanos = v.nanos[i];
        long seconds = Math.floorDiv(v.time[i] - nanos / 1_000_000, 1000);
        sums.addLong(column, seconds * 1_000_000_000L + nanos);
      }
      case LIST -> {
        ListColumnVector v = (ListColumnVector) vector;
        int start = (int) v.offsets[i];
        int length = (int) v.lengths[i];
        sums.addLong(column, length);
        TypeDescription element = type.getChildren().get(0);
        for (int e = start; e < start + length; e++) {
          feedValue(v.child, element, e, column, sums);
        }
      }
      case MAP -> {
        MapColumnVector v = (MapColumnVector) vector;
        int start = (int) v.offsets[i];
        int length = (int) v.lengths[i];
        sums.addLong(column, length);
        TypeDescription key = type.getChildren().get(0);
        TypeDescription value = type.getChildren().get(1);
        for (int e = start; e < start + length; e++) {
          feedValue(v.keys, key, e, column, sums);
          feedValue(v.values, value, e, column, sums);
        }
      }
      case STRUCT -> {
        StructColumnVector v = (StructColumnVector) vector;
        for (int f = 0; f < v.fields.length; f++) {
          feedValue(v.fields[f], type.getChildren().get(f), i, column, sums);
        }
      }
      case UNION -> {
        // The reader's mapping: a struct of the tag and one field per alternative, of which
        // only the tag's is non-null.
        UnionColumnVector v = (UnionColumnVector) vector;
        int tag = v.tags[i];
        sums.addLong(column, tag);
        for (int alternative = 0; alternative < v.fields.length; alternative++) {
          if (alternative == tag) {
            feedValue(v.fields[tag], type.getChildren().get(tag), i, column, sums);
          } else {
            sums.addNull(column);
          }
        }
      }
      default -> throw new IllegalStateException("unknown ORC type " + type);
    }
  }

  private static void feedDecimal(
      ColumnVector vector, TypeDescription type, int i, int column, ValueSink sums) {
    int scale = type.getScale();
    if (vector instanceof Decimal64ColumnVector v) {
      sums.addLong(column, v.vector[i]);
      return;
    }
    HiveDecimalWritable value = ((DecimalColumnVector) vector).vector[i];
    java.math.BigInteger unscaled =
        value
            .getHiveDecimal()
            .bigDecimalValue()
            .setScale(scale, java.math.RoundingMode.UNNECESSARY)
            .unscaledValue();
    if (type.getPrecision() <= 18) {
      sums.addLong(column, unscaled.longValueExact());
    } else {
      byte[] bytes = unscaled.toByteArray();
      sums.addBytes(column, bytes, 0, bytes.length);
    }
  }
}
