package dev.prefetch.batch;

import java.util.List;
import java.util.Objects;

/**
 * The logical type of a column: a small type system shared by every format.
 *
 * <p>Instances are immutable and compared by value. Primitive kinds are singletons; parameterized
 * kinds (decimal, timestamp, time, fixed binary) and nested kinds (list, struct, map) are built
 * with the static factories, which validate their parameters.
 *
 * <p>Which vector holds which kind is fixed, so a scan operator can switch on {@link #kind()} once
 * per column; the one choice left is a dictionary-encoded string or binary column, which comes as a
 * {@link BinaryVector} or, batch by batch, as a {@link DictionaryVector} when the format is asked
 * for dictionary vectors:
 *
 * <table>
 *   <caption>Vector class per kind</caption>
 *   <tr><th>kind</th><th>vector</th><th>value</th></tr>
 *   <tr><td>BOOLEAN</td><td>{@link BooleanVector}</td><td>boolean</td></tr>
 *   <tr><td>INT8</td><td>{@link ByteVector}</td><td>byte</td></tr>
 *   <tr><td>INT16</td><td>{@link ShortVector}</td><td>short</td></tr>
 *   <tr><td>INT32</td><td>{@link IntVector}</td><td>int</td></tr>
 *   <tr><td>INT64</td><td>{@link LongVector}</td><td>long</td></tr>
 *   <tr><td>FLOAT32</td><td>{@link FloatVector}</td><td>float</td></tr>
 *   <tr><td>FLOAT64</td><td>{@link DoubleVector}</td><td>double</td></tr>
 *   <tr><td>DECIMAL</td><td>{@link DecimalVector}</td><td>unscaled long (precision &le; 18) or big-endian bytes</td></tr>
 *   <tr><td>DATE</td><td>{@link IntVector}</td><td>days since 1970-01-01</td></tr>
 *   <tr><td>TIME</td><td>{@link LongVector}</td><td>time of day in the type's unit</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@link LongVector}</td><td>units since the epoch (UTC when {@link #utcAdjusted()})</td></tr>
 *   <tr><td>STRING, BINARY, FIXED_BINARY</td><td>{@link BinaryVector}, or {@link DictionaryVector} where the format's options ask for dictionary vectors</td><td>bytes (UTF-8 for STRING)</td></tr>
 *   <tr><td>LIST</td><td>{@link ListVector}</td><td>offsets into one child vector</td></tr>
 *   <tr><td>STRUCT</td><td>{@link StructVector}</td><td>one child vector per field</td></tr>
 *   <tr><td>MAP</td><td>{@link MapVector}</td><td>offsets into a key and a value vector</td></tr>
 * </table>
 */
public final class DataType {

  /** The kinds of type. */
  public enum Kind {
    BOOLEAN,
    INT8,
    INT16,
    INT32,
    INT64,
    FLOAT32,
    FLOAT64,
    DECIMAL,
    DATE,
    TIME,
    TIMESTAMP,
    STRING,
    BINARY,
    FIXED_BINARY,
    LIST,
    STRUCT,
    MAP;

    /** Whether values of this kind contain other values. */
    public boolean isNested() {
      return this == LIST || this == STRUCT || this == MAP;
    }
  }

  /** The unit of a TIME or TIMESTAMP value. */
  public enum TimeUnit {
    MILLIS,
    MICROS,
    NANOS
  }

  /** Largest precision whose unscaled values always fit a {@code long}. */
  public static final int MAX_LONG_DECIMAL_PRECISION = 18;

  private static final DataType BOOLEAN =
      new DataType(Kind.BOOLEAN, 0, 0, null, false, 0, List.of());
  private static final DataType INT8 = new DataType(Kind.INT8, 0, 0, null, false, 0, List.of());
  private static final DataType INT16 = new DataType(Kind.INT16, 0, 0, null, false, 0, List.of());
  private static final DataType INT32 = new DataType(Kind.INT32, 0, 0, null, false, 0, List.of());
  private static final DataType INT64 = new DataType(Kind.INT64, 0, 0, null, false, 0, List.of());
  private static final DataType FLOAT32 =
      new DataType(Kind.FLOAT32, 0, 0, null, false, 0, List.of());
  private static final DataType FLOAT64 =
      new DataType(Kind.FLOAT64, 0, 0, null, false, 0, List.of());
  private static final DataType DATE = new DataType(Kind.DATE, 0, 0, null, false, 0, List.of());
  private static final DataType STRING = new DataType(Kind.STRING, 0, 0, null, false, 0, List.of());
  private static final DataType BINARY = new DataType(Kind.BINARY, 0, 0, null, false, 0, List.of());

  private final Kind kind;
  private final int precision;
  private final int scale;
  private final TimeUnit timeUnit;
  private final boolean utcAdjusted;
  private final int byteWidth;
  private final List<Field> children;

  private DataType(
      Kind kind,
      int precision,
      int scale,
      TimeUnit timeUnit,
      boolean utcAdjusted,
      int byteWidth,
      List<Field> children) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
    this.timeUnit = timeUnit;
    this.utcAdjusted = utcAdjusted;
    this.byteWidth = byteWidth;
    this.children = children;
  }

  public static DataType bool() {
    return BOOLEAN;
  }

  public static DataType int8() {
    return INT8;
  }

  public static DataType int16() {
    return INT16;
  }

  public static DataType int32() {
    return INT32;
  }

  public static DataType int64() {
    return INT64;
  }

  public static DataType float32() {
    return FLOAT32;
  }

  public static DataType float64() {
    return FLOAT64;
  }

  public static DataType date() {
    return DATE;
  }

  public static DataType string() {
    return STRING;
  }

  public static DataType binary() {
    return BINARY;
  }

  /** A decimal of {@code precision} digits, {@code scale} of them after the point. */
  public static DataType decimal(int precision, int scale) {
    if (precision < 1) {
      throw new IllegalArgumentException("decimal precision must be at least 1: " + precision);
    }
    if (scale < 0 || scale > precision) {
      throw new IllegalArgumentException(
          "decimal scale must be in [0, precision=" + precision + "]: " + scale);
    }
    return new DataType(Kind.DECIMAL, precision, scale, null, false, 0, List.of());
  }

  /** A time of day, counted in {@code unit} since midnight. */
  public static DataType time(TimeUnit unit, boolean utcAdjusted) {
    return new DataType(
        Kind.TIME, 0, 0, Objects.requireNonNull(unit, "unit is null"), utcAdjusted, 0, List.of());
  }

  /**
   * An instant ({@code utcAdjusted}: counted from 1970-01-01T00:00Z) or a local date-time (not
   * adjusted: counted from 1970-01-01T00:00 on a wall clock without zone).
   */
  public static DataType timestamp(TimeUnit unit, boolean utcAdjusted) {
    return new DataType(
        Kind.TIMESTAMP,
        0,
        0,
        Objects.requireNonNull(unit, "unit is null"),
        utcAdjusted,
        0,
        List.of());
  }

  /** Binary values of exactly {@code byteWidth} bytes each. */
  public static DataType fixedBinary(int byteWidth) {
    if (byteWidth < 0) {
      throw new IllegalArgumentException("fixed binary width must not be negative: " + byteWidth);
    }
    return new DataType(Kind.FIXED_BINARY, 0, 0, null, false, byteWidth, List.of());
  }

  /** A list whose elements are described by {@code element}. */
  public static DataType list(Field element) {
    return new DataType(
        Kind.LIST,
        0,
        0,
        null,
        false,
        0,
        List.of(Objects.requireNonNull(element, "element is null")));
  }

  /** A struct of the given fields, in order. */
  public static DataType struct(List<Field> fields) {
    return new DataType(Kind.STRUCT, 0, 0, null, false, 0, List.copyOf(fields));
  }

  /** A map from {@code key} values to {@code value} values. */
  public static DataType map(Field key, Field value) {
    return new DataType(
        Kind.MAP,
        0,
        0,
        null,
        false,
        0,
        List.of(
            Objects.requireNonNull(key, "key is null"),
            Objects.requireNonNull(value, "value is null")));
  }

  public Kind kind() {
    return kind;
  }

  /** Decimal precision; 0 for other kinds. */
  public int precision() {
    return precision;
  }

  /** Decimal scale; 0 for other kinds. */
  public int scale() {
    return scale;
  }

  /** Unit of TIME and TIMESTAMP; null for other kinds. */
  public TimeUnit timeUnit() {
    return timeUnit;
  }

  /** Whether a TIME or TIMESTAMP is adjusted to UTC. */
  public boolean utcAdjusted() {
    return utcAdjusted;
  }

  /** Width of FIXED_BINARY values; 0 for other kinds. */
  public int byteWidth() {
    return byteWidth;
  }

  /** Nested fields: the element of a LIST, the fields of a STRUCT, key and value of a MAP. */
  public List<Field> children() {
    return children;
  }

  /** The element field of a LIST. */
  public Field elementField() {
    requireKind(Kind.LIST);
    return children.get(0);
  }

  /** The key field of a MAP. */
  public Field keyField() {
    requireKind(Kind.MAP);
    return children.get(0);
  }

  /** The value field of a MAP. */
  public Field valueField() {
    requireKind(Kind.MAP);
    return children.get(1);
  }

  private void requireKind(Kind expected) {
    if (kind != expected) {
      throw new IllegalStateException("not a " + expected + " type: " + this);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof DataType other)) {
      return false;
    }
    return kind == other.kind
        && precision == other.precision
        && scale == other.scale
        && timeUnit == other.timeUnit
        && utcAdjusted == other.utcAdjusted
        && byteWidth == other.byteWidth
        && children.equals(other.children);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, precision, scale, timeUnit, utcAdjusted, byteWidth, children);
  }

  @Override
  public String toString() {
    switch (kind) {
      case DECIMAL:
        return "decimal(" + precision + "," + scale + ")";
      case TIME:
      case TIMESTAMP:
        return kind.name().toLowerCase()
            + "("
            + timeUnit.name().toLowerCase()
            + (utcAdjusted ? ", utc" : "")
            + ")";
      case FIXED_BINARY:
        return "fixed_binary(" + byteWidth + ")";
      case LIST:
        return "list<" + children.get(0) + ">";
      case MAP:
        return "map<" + children.get(0) + ", " + children.get(1) + ">";
      case STRUCT:
        {
          StringBuilder sb = new StringBuilder("struct<");
          for (int i = 0; i < children.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(children.get(i));
          }
          return sb.append('>').toString();
        }
      default:
        return kind.name().toLowerCase();
    }
  }
}
