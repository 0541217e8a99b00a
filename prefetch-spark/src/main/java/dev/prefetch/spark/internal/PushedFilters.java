package dev.prefetch.spark.internal;

import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark data filters as pruning predicates: Parquet {@link FilterPredicate}s (row groups by
 * statistics, dictionaries and bloom filters; pages by column indexes) and ORC {@link
 * SearchArgument}s (stripes by statistics).
 *
 * <p>Pushed: {@code =}, {@code <=>}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code IN},
 * {@code IS NULL}, {@code IS NOT NULL}, and {@code AND}, {@code OR}, {@code NOT} of those, on
 * top-level columns of boolean, byte, short, int, long, float, double, string and date type whose
 * names have no dot. Other filters (timestamps and decimals, whose physical encodings vary by
 * writer; nested fields; string functions) are left to Spark alone. Pruning only drops data that
 * cannot match, and Spark evaluates every filter on the rows again, so results never depend on what
 * was pushed.
 */
final class PushedFilters {

  private PushedFilters() {}

  /** Whether {@code filter} can be pushed whole, for both formats. */
  static boolean pushable(Filter filter, StructType schema) {
    return parquet(filter, schema, false) != null;
  }

  /** The conjunction of {@code filters} for Parquet, or null when none translates. */
  static FilterPredicate toParquet(Filter[] filters, StructType schema) {
    FilterPredicate all = null;
    for (Filter filter : filters) {
      FilterPredicate p = parquet(filter, schema, true);
      if (p != null) {
        all = all == null ? p : FilterApi.and(all, p);
      }
    }
    return all;
  }

  /** The conjunction of {@code filters} for ORC, or null when none translates. */
  static SearchArgument toOrc(Filter[] filters, StructType schema) {
    List<Filter> pushed = new ArrayList<>();
    for (Filter filter : filters) {
      if (pushable(filter, schema)) {
        pushed.add(filter);
      }
    }
    if (pushed.isEmpty()) {
      return null;
    }
    SearchArgument.Builder builder = SearchArgumentFactory.newBuilder().startAnd();
    for (Filter filter : pushed) {
      orc(filter, schema, builder);
    }
    return builder.end().build();
  }

  // Parquet ------------------------------------------------------------------------------

  private static FilterPredicate parquet(Filter filter, StructType schema, boolean partial) {
    if (filter instanceof And and) {
      FilterPredicate left = parquet(and.left(), schema, partial);
      FilterPredicate right = parquet(and.right(), schema, partial);
      if (left != null && right != null) {
        return FilterApi.and(left, right);
      }
      // Under AND (never under NOT) one side alone still prunes only non-matching data.
      return partial ? (left != null ? left : right) : null;
    }
    if (filter instanceof Or or) {
      FilterPredicate left = parquet(or.left(), schema, false);
      FilterPredicate right = parquet(or.right(), schema, false);
      return left != null && right != null ? FilterApi.or(left, right) : null;
    }
    if (filter instanceof Not not) {
      FilterPredicate child = parquet(not.child(), schema, false);
      return child == null ? null : FilterApi.not(child);
    }
    String name = attribute(filter);
    if (name == null) {
      return null;
    }
    DataType type = columnType(name, schema);
    if (type == null) {
      return null;
    }
    if (filter instanceof IsNull) {
      return eqNull(name, type, true);
    }
    if (filter instanceof IsNotNull) {
      return eqNull(name, type, false);
    }
    if (filter instanceof EqualTo eq) {
      return compare("eq", name, type, eq.value());
    }
    if (filter instanceof EqualNullSafe eq) {
      return eq.value() == null ? eqNull(name, type, true) : compare("eq", name, type, eq.value());
    }
    if (filter instanceof LessThan lt) {
      return compare("lt", name, type, lt.value());
    }
    if (filter instanceof LessThanOrEqual le) {
      return compare("le", name, type, le.value());
    }
    if (filter instanceof GreaterThan gt) {
      return compare("gt", name, type, gt.value());
    }
    if (filter instanceof GreaterThanOrEqual ge) {
      return compare("ge", name, type, ge.value());
    }
    if (filter instanceof In in) {
      FilterPredicate any = null;
      for (Object value : in.values()) {
        FilterPredicate p = value == null ? null : compare("eq", name, type, value);
        if (p == null) {
          return null;
        }
        any = any == null ? p : FilterApi.or(any, p);
      }
      return any;
    }
    return null;
  }

  private static FilterPredicate eqNull(String name, DataType type, boolean isNull) {
    if (type instanceof BooleanType) {
      return nullCheck(FilterApi.booleanColumn(name), isNull);
    }
    if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof DateType) {
      return nullCheck(FilterApi.intColumn(name), isNull);
    }
    if (type instanceof LongType) {
      return nullCheck(FilterApi.longColumn(name), isNull);
    }
    if (type instanceof FloatType) {
      return nullCheck(FilterApi.floatColumn(name), isNull);
    }
    if (type instanceof DoubleType) {
      return nullCheck(FilterApi.doubleColumn(name), isNull);
    }
    if (type instanceof StringType) {
      return nullCheck(FilterApi.binaryColumn(name), isNull);
    }
    return null;
  }

  private static <
          T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsEqNotEq>
      FilterPredicate nullCheck(C column, boolean isNull) {
    return isNull ? FilterApi.eq(column, (T) null) : FilterApi.notEq(column, (T) null);
  }

  private static FilterPredicate compare(String op, String name, DataType type, Object value) {
    Object v = parquetValue(type, value);
    if (v == null) {
      return null;
    }
    if (type instanceof BooleanType) {
      return op.equals("eq") ? FilterApi.eq(FilterApi.booleanColumn(name), (Boolean) v) : null;
    }
    if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof DateType) {
      return compare(op, FilterApi.intColumn(name), (Integer) v);
    }
    if (type instanceof LongType) {
      return compare(op, FilterApi.longColumn(name), (Long) v);
    }
    if (type instanceof FloatType) {
      return compare(op, FilterApi.floatColumn(name), (Float) v);
    }
    if (type instanceof DoubleType) {
      return compare(op, FilterApi.doubleColumn(name), (Double) v);
    }
    if (type instanceof StringType) {
      return compare(op, FilterApi.binaryColumn(name), (Binary) v);
    }
    return null;
  }

  private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt>
      FilterPredicate compare(String op, C column, T value) {
    return switch (op) {
      case "eq" -> FilterApi.eq(column, value);
      case "lt" -> FilterApi.lt(column, value);
      case "le" -> FilterApi.ltEq(column, value);
      case "gt" -> FilterApi.gt(column, value);
      case "ge" -> FilterApi.gtEq(column, value);
      default -> throw new IllegalStateException(op);
    };
  }

  private static Object parquetValue(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    if (type instanceof BooleanType && value instanceof Boolean b) {
      return b;
    }
    if ((type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType)
        && (value instanceof Byte || value instanceof Short || value instanceof Integer)) {
      return ((Number) value).intValue();
    }
    if (type instanceof DateType) {
      Long days = epochDay(value);
      return days == null ? null : Math.toIntExact(days);
    }
    if (type instanceof LongType
        && value instanceof Number n
        && !(value instanceof Float)
        && !(value instanceof Double)) {
      return n.longValue();
    }
    if (type instanceof FloatType && value instanceof Float f) {
      return f.isNaN() ? null : f;
    }
    if (type instanceof DoubleType && value instanceof Double d) {
      return d.isNaN() ? null : d;
    }
    if (type instanceof StringType && value instanceof String s) {
      return Binary.fromString(s);
    }
    return null;
  }

  private static Long epochDay(Object value) {
    if (value instanceof LocalDate d) {
      return d.toEpochDay();
    }
    if (value instanceof Date d) {
      return d.toLocalDate().toEpochDay();
    }
    return null;
  }

  // ORC ------------------------------------------------------------------------------------

  /** Adds {@code filter} (already known to be pushable) to {@code builder}. */
  private static void orc(Filter filter, StructType schema, SearchArgument.Builder builder) {
    if (filter instanceof And and) {
      builder.startAnd();
      orc(and.left(), schema, builder);
      orc(and.right(), schema, builder);
      builder.end();
      return;
    }
    if (filter instanceof Or or) {
      builder.startOr();
      orc(or.left(), schema, builder);
      orc(or.right(), schema, builder);
      builder.end();
      return;
    }
    if (filter instanceof Not not) {
      builder.startNot();
      orc(not.child(), schema, builder);
      builder.end();
      return;
    }
    String name = attribute(filter);
    DataType type = columnType(name, schema);
    PredicateLeaf.Type leaf = orcType(type);
    if (filter instanceof IsNull || (filter instanceof EqualNullSafe eq && eq.value() == null)) {
      builder.isNull(name, leaf);
    } else if (filter instanceof IsNotNull) {
      builder.startNot().isNull(name, leaf).end();
    } else if (filter instanceof EqualTo eq) {
      builder.equals(name, leaf, orcValue(type, eq.value()));
    } else if (filter instanceof EqualNullSafe eq) {
      builder.nullSafeEquals(name, leaf, orcValue(type, eq.value()));
    } else if (filter instanceof LessThan lt) {
      builder.lessThan(name, leaf, orcValue(type, lt.value()));
    } else if (filter instanceof LessThanOrEqual le) {
      builder.lessThanEquals(name, leaf, orcValue(type, le.value()));
    } else if (filter instanceof GreaterThan gt) {
      builder.startNot().lessThanEquals(name, leaf, orcValue(type, gt.value())).end();
    } else if (filter instanceof GreaterThanOrEqual ge) {
      builder.startNot().lessThan(name, leaf, orcValue(type, ge.value())).end();
    } else if (filter instanceof In in) {
      Object[] values = new Object[in.values().length];
      for (int i = 0; i < values.length; i++) {
        values[i] = orcValue(type, in.values()[i]);
      }
      builder.in(name, leaf, values);
    } else {
      throw new IllegalStateException("not pushable: " + filter);
    }
  }

  private static PredicateLeaf.Type orcType(DataType type) {
    if (type instanceof BooleanType) {
      return PredicateLeaf.Type.BOOLEAN;
    }
    if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType) {
      return PredicateLeaf.Type.LONG;
    }
    if (type instanceof FloatType || type instanceof DoubleType) {
      return PredicateLeaf.Type.FLOAT;
    }
    if (type instanceof StringType) {
      return PredicateLeaf.Type.STRING;
    }
    if (type instanceof DateType) {
      return PredicateLeaf.Type.DATE;
    }
    throw new IllegalStateException("not pushable: " + type);
  }

  private static Object orcValue(DataType type, Object value) {
    if (type instanceof FloatType || type instanceof DoubleType) {
      // orc-core compares floating point statistics as doubles; a float widens exactly.
      return ((Number) value).doubleValue();
    }
    if (type instanceof DateType) {
      return Date.valueOf(LocalDate.ofEpochDay(epochDay(value)));
    }
    if (value instanceof Number n && !(value instanceof Float) && !(value instanceof Double)) {
      return n.longValue();
    }
    return value;
  }

  // Shared --------------------------------------------------------------------------------

  private static String attribute(Filter filter) {
    String[] refs = filter.references();
    if (refs.length != 1 || refs[0].contains(".")) {
      return null;
    }
    return refs[0];
  }

  private static DataType columnType(String name, StructType schema) {
    for (StructField field : schema.fields()) {
      if (field.name().equals(name)) {
        return field.dataType();
      }
    }
    return null;
  }
}
