package dev.prefetch.cli;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.LocalDate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Parses {@code "column op literal"} and builds the format library's own predicate for it, typed by
 * the column's type in the file: a Parquet {@link FilterPredicate} or an ORC {@link
 * SearchArgument}.
 */
public final class FilterParser {

  /** A parsed predicate. */
  public record Predicate(String column, String op, String literal) {}

  private static final String[] OPS = {"<=", ">=", "!=", "=", "<", ">"};

  private FilterParser() {}

  /** Parses the text; a bad one is a usage error. */
  public static Predicate parse(String text) {
    String t = text.trim();
    for (int i = 0; i < t.length(); i++) {
      for (String op : OPS) {
        if (t.startsWith(op, i)) {
          String column = t.substring(0, i).trim();
          String literal = t.substring(i + op.length()).trim();
          if (column.isEmpty() || literal.isEmpty()) {
            break;
          }
          if (literal.length() >= 2
              && (literal.startsWith("'") && literal.endsWith("'")
                  || literal.startsWith("\"") && literal.endsWith("\""))) {
            literal = literal.substring(1, literal.length() - 1);
          }
          return new Predicate(column, op, literal);
        }
      }
    }
    throw new CliException(
        CliException.USAGE,
        "--filter must be \"column op literal\" with op one"
            + " of = != < <= > >= (e.g. \"qty >= 500\"): '"
            + text
            + "'");
  }

  /** The Parquet predicate for {@code file}, typed by the column's type. */
  public static FilterPredicate parquet(Predicate p, Path file, Configuration conf)
      throws IOException {
    MessageType schema;
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
      schema = reader.getFooter().getFileMetaData().getSchema();
    }
    if (!schema.containsField(p.column()) || !schema.getType(p.column()).isPrimitive()) {
      throw new CliException(
          CliException.USAGE,
          file
              + ": --filter column '"
              + p.column()
              + "' is not a top-level primitive column of the file");
    }
    PrimitiveType type = schema.getType(p.column()).asPrimitiveType();
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    try {
      switch (type.getPrimitiveTypeName()) {
        case INT32:
          {
            int v =
                logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
                    ? Math.toIntExact(parseDate(p.literal()))
                    : logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d
                        ? unscaled(p.literal(), d).intValueExact()
                        : Integer.parseInt(p.literal());
            return compare(FilterApi.intColumn(p.column()), v, p.op());
          }
        case INT64:
          {
            long v =
                logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d
                    ? unscaled(p.literal(), d).longValueExact()
                    : Long.parseLong(p.literal());
            return compare(FilterApi.longColumn(p.column()), v, p.op());
          }
        case FLOAT:
          return compare(FilterApi.floatColumn(p.column()), Float.parseFloat(p.literal()), p.op());
        case DOUBLE:
          return compare(
              FilterApi.doubleColumn(p.column()), Double.parseDouble(p.literal()), p.op());
        case BOOLEAN:
          {
            boolean v = parseBoolean(p.literal());
            Operators.BooleanColumn column = FilterApi.booleanColumn(p.column());
            return switch (p.op()) {
              case "=" -> FilterApi.eq(column, v);
              case "!=" -> FilterApi.notEq(column, v);
              default ->
                  throw new CliException(
                      CliException.USAGE, "--filter: a boolean column supports only = and !=");
            };
          }
        case BINARY:
          return compare(
              FilterApi.binaryColumn(p.column()), Binary.fromString(p.literal()), p.op());
        default:
          throw unsupported(file, p, type);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      throw notAValue(p, type);
    }
  }

  /** A decimal literal as the unscaled integer of a column of that decimal's scale. */
  private static BigInteger unscaled(
      String literal, LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
    return new BigDecimal(literal).setScale(decimal.getScale()).unscaledValue();
  }

  private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt>
      FilterPredicate compare(C column, T value, String op) {
    return switch (op) {
      case "=" -> FilterApi.eq(column, value);
      case "!=" -> FilterApi.notEq(column, value);
      case "<" -> FilterApi.lt(column, value);
      case "<=" -> FilterApi.ltEq(column, value);
      case ">" -> FilterApi.gt(column, value);
      case ">=" -> FilterApi.gtEq(column, value);
      default -> throw new IllegalStateException("unknown op " + op);
    };
  }

  /** The ORC search argument for {@code file}, typed by the column's type. */
  public static SearchArgument orc(Predicate p, Path file, Configuration conf) throws IOException {
    TypeDescription schema;
    try (Reader reader = OrcFile.createReader(file, OrcFile.readerOptions(conf))) {
      schema = reader.getSchema();
    }
    int index = schema.getFieldNames().indexOf(p.column());
    if (index < 0) {
      throw new CliException(
          CliException.USAGE,
          file + ": --filter column '" + p.column() + "' is not a top-level column of the file");
    }
    TypeDescription type = schema.getChildren().get(index);
    PredicateLeaf.Type leafType;
    Object value;
    try {
      switch (type.getCategory()) {
        case BYTE, SHORT, INT, LONG -> {
          leafType = PredicateLeaf.Type.LONG;
          value = Long.parseLong(p.literal());
        }
        case FLOAT, DOUBLE -> {
          leafType = PredicateLeaf.Type.FLOAT;
          value = Double.parseDouble(p.literal());
        }
        case STRING, VARCHAR, CHAR -> {
          leafType = PredicateLeaf.Type.STRING;
          value = p.literal();
        }
        case BOOLEAN -> {
          leafType = PredicateLeaf.Type.BOOLEAN;
          value = parseBoolean(p.literal());
        }
        case DATE -> {
          leafType = PredicateLeaf.Type.DATE;
          value = Date.valueOf(LocalDate.ofEpochDay(parseDate(p.literal())));
        }
        case DECIMAL -> {
          leafType = PredicateLeaf.Type.DECIMAL;
          value = new HiveDecimalWritable(p.literal());
        }
        case TIMESTAMP, TIMESTAMP_INSTANT -> {
          leafType = PredicateLeaf.Type.TIMESTAMP;
          value = Timestamp.valueOf(p.literal());
        }
        default -> throw unsupported(file, p, type);
      }
    } catch (CliException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw notAValue(p, type);
    }
    SearchArgument.Builder b = SearchArgumentFactory.newBuilder();
    String c = p.column();
    switch (p.op()) {
      case "=" -> b.startAnd().equals(c, leafType, value).end();
      case "!=" -> b.startNot().equals(c, leafType, value).end();
      case "<" -> b.startAnd().lessThan(c, leafType, value).end();
      case "<=" -> b.startAnd().lessThanEquals(c, leafType, value).end();
      case ">" -> b.startNot().lessThanEquals(c, leafType, value).end();
      case ">=" -> b.startNot().lessThan(c, leafType, value).end();
      default -> throw new IllegalStateException("unknown op " + p.op());
    }
    return b.build();
  }

  private static CliException unsupported(Path file, Predicate p, Object type) {
    return new CliException(
        CliException.USAGE,
        file + ": --filter does not support column '" + p.column() + "' of type " + type);
  }

  private static CliException notAValue(Predicate p, Object type) {
    return new CliException(
        CliException.USAGE,
        "--filter: '"
            + p.literal()
            + "' is not a value of column '"
            + p.column()
            + "' ("
            + type
            + ")");
  }

  private static boolean parseBoolean(String literal) {
    if (literal.equalsIgnoreCase("true")) {
      return true;
    }
    if (literal.equalsIgnoreCase("false")) {
      return false;
    }
    throw new CliException(CliException.USAGE, "--filter: '" + literal + "' is not a boolean");
  }

  /** Days since the epoch of "yyyy-mm-dd", or a plain day number. */
  private static long parseDate(String literal) {
    if (literal.matches("-?\\d+")) {
      return Long.parseLong(literal);
    }
    try {
      return LocalDate.parse(literal).toEpochDay();
    } catch (java.time.format.DateTimeParseException e) {
      throw new NumberFormatException(literal);
    }
  }
}
