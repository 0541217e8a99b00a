package dev.prefetch.spark.internal;

import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.StructVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;

/**
 * The wrappers of lists, maps and structs: their children are wrapped by {@link SparkColumns#wrap}
 * in turn.
 */
final class NestedColumns {

  private NestedColumns() {}

  static final class ListColumn extends WrappedColumn {
    private final int[] offsets;
    private final ColumnVector elements;

    ListColumn(DataType type, ListVector vector, ColumnVector elements) {
      super(type, vector);
      this.offsets = vector.offsets();
      this.elements = elements;
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      return new ColumnarArray(elements, offsets[rowId], offsets[rowId + 1] - offsets[rowId]);
    }

    @Override
    public void close() {
      elements.close();
    }
  }

  static final class MapColumn extends WrappedColumn {
    private final int[] offsets;
    private final ColumnVector keys;
    private final ColumnVector values;

    MapColumn(DataType type, MapVector vector, ColumnVector keys, ColumnVector values) {
      super(type, vector);
      this.offsets = vector.offsets();
      this.keys = keys;
      this.values = values;
    }

    @Override
    public ColumnarMap getMap(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      return new ColumnarMap(keys, values, offsets[rowId], offsets[rowId + 1] - offsets[rowId]);
    }

    @Override
    public void close() {
      keys.close();
      values.close();
    }
  }

  static final class StructColumn extends WrappedColumn {
    private final ColumnVector[] children;

    StructColumn(DataType type, StructVector vector, ColumnVector[] children) {
      super(type, vector);
      this.children = children;
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      return children[ordinal];
    }

    @Override
    public void close() {
      for (ColumnVector child : children) {
        child.close();
      }
    }
  }
}
