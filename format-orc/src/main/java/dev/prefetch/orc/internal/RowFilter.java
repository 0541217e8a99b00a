package dev.prefetch.orc.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.batch.StructVector;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.apache.orc.filter.BatchFilter;
import org.apache.orc.impl.OrcFilterContextImpl;
import org.apache.orc.impl.filter.FilterFactory;

/**
 * orc-core's row filter of a {@link SearchArgument}, for reads that ask for it ({@code
 * orc.sarg.to.filter} with {@code orc.filter.use.selected}): the predicate evaluated on each row of
 * a batch, so that only the rows it holds for are returned. orc-core's own filter ({@link
 * FilterFactory}) runs over orc-core vectors of the predicate's top-level columns, made from the
 * values our readers decoded for them, so the rows selected are exactly those orc-core's reader
 * returns.
 *
 * <p>This is the one place the read path builds orc-core vectors, and only under this option: the
 * predicate columns' values are copied into them (strings by reference).
 *
 * <p>Confined to its range reader's thread.
 */
final class RowFilter {

  private final BatchFilter filter;
  private final TypeDescription schema;
  private final int[] columns;
  private final VectorizedRowBatch batch;
  private final OrcFilterContextImpl context;

  private RowFilter(
      BatchFilter filter, TypeDescription schema, int[] columns, boolean caseAware, int rows) {
    this.filter = filter;
    this.schema = schema;
    this.columns = columns;
    this.batch = schema.createRowBatch(TypeDescription.RowBatchVersion.USE_DECIMAL64, rows);
    this.context = new OrcFilterContextImpl(schema, caseAware);
  }

  /**
   * The row filter of a read of {@code schema} (a struct) with {@code sarg}, or null when the read
   * does not ask for one (or orc-core cannot make one of it).
   *
   * @param batchSize the most rows of a batch
   */
  static RowFilter of(
      SearchArgument sarg,
      TypeDescription schema,
      OrcFile.Version version,
      Configuration conf,
      int batchSize) {
    if (sarg == null || schema.getCategory() != TypeDescription.Category.STRUCT) {
      return null;
    }
    Reader.Options options = new Reader.Options(conf);
    if (!options.isAllowSARGToFilter() || !options.useSelected()) {
      return null; // without selected rows orc-core returns every row: no filter to run
    }
    boolean caseAware = OrcConf.IS_SCHEMA_EVOLUTION_CASE_SENSITIVE.getBoolean(conf);
    String[] names = schema.getFieldNames().toArray(new String[0]);
    options.searchArgument(sarg, names);
    BatchFilter filter =
        FilterFactory.createBatchFilter(options, schema, caseAware, version, false, null, conf);
    if (filter == null) {
      return null;
    }
    Set<Integer> top = new LinkedHashSet<>();
    for (String name : filter.getColumnNames()) {
      TypeDescription column;
      try {
        column = schema.findSubtype(name, caseAware);
      } catch (IllegalArgumentException e) {
        continue; // a column the file lacks: orc-core reads it as nulls
      }
      while (column.getParent() != null && column.getParent() != schema) {
        column = column.getParent();
      }
      top.add(schema.getChildren().indexOf(column));
    }
    int[] columns = top.stream().mapToInt(Integer::intValue).toArray();
    return new RowFilter(filter, schema, columns, caseAware, batchSize);
  }

  /** The top-level columns (indexes in the file's struct) whose values the filter needs. */
  int[] columns() {
    return columns.clone();
  }

  /**
   * Runs the filter over the values of {@link #columns()} of {@code rows} rows.
   *
   * @param values the columns' vectors, in the order of {@link #columns()}
   * @param selected receives the selected rows, ascending
   * @return how many rows are selected
   */
  int select(List<ColumnVector> values, int rows, int[] selected) {
    batch.reset();
    for (int i = 0; i < columns.length; i++) {
      int column = columns[i];
      fill(values.get(i), batch.cols[column], schema.getChildren().get(column), rows);
    }
    batch.size = rows;
    context.setBatch(batch);
    filter.accept(context);
    if (!batch.selectedInUse) {
      for (int i = 0; i < rows; i++) {
        selected[i] = i;
      }
      return batch.size;
    }
    System.arraycopy(batch.selected, 0, selected, 0, batch.size);
    return batch.size;
  }

  /** Copies our vector's rows into orc-core's vector of the same column. */
  private static void fill(
      ColumnVector ours,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector theirs,
      TypeDescription type,
      int rows) {
    theirs.ensureSize(rows, false);
    theirs.isRepeating = false;
    boolean[] nulls = ours.nullMask();
    theirs.noNulls = nulls == null;
    for (int i = 0; i < rows; i++) {
      theirs.isNull[i] = nulls != null && nulls[i];
    }
    switch (type.getCategory()) {
      case BOOLEAN -> {
        boolean[] v = ((BooleanVector) ours).values();
        long[] out = ((LongColumnVector) theirs).vector;
        for (int i = 0; i < rows; i++) {
          out[i] = v[i] ? 1 : 0;
        }
      }
      case BYTE -> {
        byte[] v = ((ByteVector) ours).values();
        long[] out = ((LongColumnVector) theirs).vector;
        for (int i = 0; i < rows; i++) {
          out[i] = v[i];
        }
      }
      case SHORT -> {
        short[] v = ((ShortVector) ours).values();
        long[] out = ((LongColumnVector) theirs).vector;
        for (int i = 0; i < rows; i++) {
          out[i] = v[i];
        }
      }
      case INT, DATE -> {
        int[] v = ((IntVector) ours).values();
        long[] out = ((LongColumnVector) theirs).vector;
        for (int i = 0; i < rows; i++) {
          out[i] = v[i];
        }
      }
      case LONG ->
          System.arraycopy(
              ((LongVector) ours).values(), 0, ((LongColumnVector) theirs).vector, 0, rows);
      case FLOAT -> {
        float[] v = ((FloatVector) ours).values();
        double[] out = ((DoubleColumnVector) theirs).vector;
        for (int i = 0; i < rows; i++) {
          out[i] = v[i];
        }
      }
      case DOUBLE ->
          System.arraycopy(
              ((DoubleVector) ours).values(), 0, ((DoubleColumnVector) theirs).vector, 0, rows);
      case STRING, CHAR, VARCHAR, BINARY -> {
        BinaryVector v = (BinaryVector) ours;
        BytesColumnVector out = (BytesColumnVector) theirs;
        byte[] data = v.data();
        for (int i = 0; i < rows; i++) {
          out.setRef(i, data, v.start(i), v.length(i));
        }
      }
      case DECIMAL -> fillDecimal((DecimalVector) ours, theirs, rows);
      case TIMESTAMP, TIMESTAMP_INSTANT -> {
        long[] v = ((LongVector) ours).values();
        TimestampColumnVector out = (TimestampColumnVector) theirs;
        for (int i = 0; i < rows; i++) {
          long seconds = Math.floorDiv(v[i], 1_000_000_000L);
          int nanos = (int) Math.floorMod(v[i], 1_000_000_000L);
          out.time[i] = seconds * 1000 + nanos / 1_000_000;
          out.nanos[i] = nanos;
        }
      }
      case STRUCT -> {
        StructVector v = (StructVector) ours;
        StructColumnVector out = (StructColumnVector) theirs;
        List<TypeDescription> children = type.getChildren();
        for (int f = 0; f < children.size(); f++) {
          fill(v.child(f), out.fields[f], children.get(f), rows);
        }
      }
      default -> {
        // lists, maps and unions hold no value a predicate leaf names
      }
    }
  }

  private static void fillDecimal(
      DecimalVector ours, org.apache.hadoop.hive.ql.exec.vector.ColumnVector theirs, int rows) {
    if (theirs instanceof Decimal64ColumnVector out) {
      System.arraycopy(ours.unscaledLongs(), 0, out.vector, 0, rows);
      return;
    }
    DecimalColumnVector out = (DecimalColumnVector) theirs;
    for (int i = 0; i < rows; i++) {
      if (!ours.isNull(i)) {
        out.set(i, HiveDecimal.create(ours.getDecimal(i)));
      }
    }
  }

  /** The type of a top-level column as the read maps it, for its filter reader. */
  static List<DataType> types(TypeDescription schema, int[] columns) {
    List<DataType> types = new ArrayList<>(columns.length);
    for (int column : columns) {
      types.add(OrcTypes.toDataType(schema.getChildren().get(column)));
    }
    return types;
  }
}
