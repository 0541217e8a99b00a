package dev.prefetch.parquet.internal.compat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;

/**
 * parquet-hadoop's row ranges, the same for parquet 1.17 (the version Spark 4.2 ships) and 1.18.
 * The class moved between them ({@code org.apache.parquet.internal.filter2.columnindex.RowRanges}
 * became {@code org.apache.parquet.filter2.columnindex.RowRanges}), and a method returning or
 * taking it fails with {@code NoSuchMethodError} on the other version when called directly. So the
 * three calls that touch it go through reflection, resolved once: the column-index filter's result
 * becomes plain {@code [from, to)} bounds, and a slice's bounds become whichever row-range object
 * this version's {@code readFilteredRowGroup} takes. Each call is made once per row group or slice,
 * so reflection costs nothing that shows.
 */
public final class RowRangesCompat {

  /** The class both versions have: 1.17's only one, 1.18's deprecated twin. */
  private static final String LEGACY_ROW_RANGES =
      "org.apache.parquet.internal.filter2.columnindex.RowRanges";

  private static final Method CALCULATE;
  private static final Method CREATE;
  private static final Method READ_FILTERED;

  static {
    try {
      CALCULATE =
          ColumnIndexFilter.class.getMethod(
              "calculateRowRanges",
              FilterCompat.Filter.class,
              ColumnIndexStore.class,
              Set.class,
              long.class);
      Class<?> legacy =
          Class.forName(LEGACY_ROW_RANGES, false, ColumnIndexFilter.class.getClassLoader());
      CREATE =
          legacy.getMethod("create", long.class, PrimitiveIterator.OfInt.class, OffsetIndex.class);
      Class<?> created = CREATE.getReturnType();
      READ_FILTERED = ParquetFileReader.class.getMethod("readFilteredRowGroup", int.class, created);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError("unsupported parquet-hadoop version: " + e);
    }
  }

  private RowRangesCompat() {}

  /** The rows of a row group the column-index filter keeps, as {@code [from, to)} pairs. */
  public static long[] columnIndexRows(
      FilterCompat.Filter filter, ColumnIndexStore store, Set<ColumnPath> paths, long rowCount) {
    Object ranges = invoke(CALCULATE, null, filter, store, paths, rowCount);
    try {
      List<?> list = (List<?>) ranges.getClass().getMethod("getRanges").invoke(ranges);
      long[] bounds = new long[2 * list.size()];
      for (int i = 0; i < list.size(); i++) {
        Object range = list.get(i);
        Field from = range.getClass().getField("from");
        Field to = range.getClass().getField("to");
        bounds[2 * i] = from.getLong(range);
        bounds[2 * i + 1] = to.getLong(range) + 1;
      }
      return bounds;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("unsupported parquet-hadoop row ranges: " + e, e);
    }
  }

  /** Reads the rows {@code bounds} (sorted, disjoint {@code [from, to)} pairs) of a row group. */
  public static PageReadStore readFiltered(
      ParquetFileReader reader, int rowGroup, long rowCount, long[] bounds) throws IOException {
    Object ranges =
        invoke(
            CREATE,
            null,
            rowCount,
            IntStream.range(0, bounds.length / 2).iterator(),
            new BoundsIndex(bounds));
    try {
      return (PageReadStore) READ_FILTERED.invoke(reader, rowGroup, ranges);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw rethrow(cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object invoke(Method method, Object target, Object... args) {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw rethrow(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static RuntimeException rethrow(Throwable cause) {
    if (cause instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    throw new IllegalStateException(cause);
  }

  /**
   * The bounds as the "pages" of an offset index, which is what {@code RowRanges.create} turns into
   * ranges (page i is rows {@code [from_i, to_i - 1]}); only the row indexes are read.
   */
  private record BoundsIndex(long[] bounds) implements OffsetIndex {
    @Override
    public int getPageCount() {
      return bounds.length / 2;
    }

    @Override
    public long getOffset(int pageIndex) {
      return 0;
    }

    @Override
    public int getCompressedPageSize(int pageIndex) {
      return 0;
    }

    @Override
    public long getFirstRowIndex(int pageIndex) {
      return bounds[2 * pageIndex];
    }

    @Override
    public long getLastRowIndex(int pageIndex, long rowGroupRowCount) {
      return bounds[2 * pageIndex + 1] - 1;
    }
  }
}
