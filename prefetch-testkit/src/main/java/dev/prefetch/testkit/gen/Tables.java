package dev.prefetch.testkit.gen;

/**
 * The columns of the generated tables and their values, shared by both writers. Each method is a
 * pure function of the seed and the row (and, for nested values, the element), so generated files
 * are reproducible.
 */
public final class Tables {

  /** Column names of the scan table, in order. */
  public static final String[] SCAN_COLUMNS = {
    "id",
    "qty",
    "price",
    "category",
    "customer",
    "comment",
    "day",
    "ts",
    "amount",
    "active",
    "ratio",
    "code"
  };

  /** Column names of the nested table, in order. */
  public static final String[] NESTED_COLUMNS = {"id", "tags", "attrs", "point", "events"};

  public static final int AMOUNT_PRECISION = 12;
  public static final int AMOUNT_SCALE = 2;

  private Tables() {}

  /** Name of column {@code index} of a wide table. */
  public static String wideColumn(int index) {
    return "c" + index;
  }

  // scan table -----------------------------------------------------------------------------

  static int qty(long seed, long row) {
    return Values.below(Values.hash(seed, row, 1), 1000);
  }

  static double price(long seed, long row) {
    return Math.floor(Values.unitDouble(Values.hash(seed, row, 2)) * 100_000) / 100;
  }

  static byte[] category(long seed, long row) {
    return Values.category(Values.hash(seed, row, 3));
  }

  static byte[] customer(long seed, long row) {
    return Values.customer(Values.hash(seed, row, 4));
  }

  /** A comment, null for a quarter of the rows. */
  static byte[] comment(long seed, long row) {
    long h = Values.hash(seed, row, 5);
    if (Values.below(h, 4) == 0) {
      return null;
    }
    return Values.ascii("note " + Values.below(h >>> 8, 100_000));
  }

  static int day(long seed, long row) {
    return Values.FIRST_DAY + Values.below(Values.hash(seed, row, 6), 3650);
  }

  /** Microseconds since the epoch, UTC; increasing with the row. */
  static long tsMicros(long seed, long row) {
    return Values.FIRST_TIMESTAMP_MICROS
        + row * 1000
        + Values.below(Values.hash(seed, row, 7), 1000);
  }

  /** Unscaled decimal(12, 2). */
  static long amountUnscaled(long seed, long row) {
    return Values.below(Values.hash(seed, row, 8), 200_000_000) - 100_000_000L;
  }

  static boolean active(long seed, long row) {
    return (Values.hash(seed, row, 9) & 1) == 1;
  }

  static float ratio(long seed, long row) {
    return (Values.hash(seed, row, 10) >>> 40) / (float) (1 << 24);
  }

  /** Whether {@code code} is null (a tenth of the rows). */
  static boolean codeIsNull(long seed, long row) {
    return Values.below(Values.hash(seed, row, 11), 10) == 0;
  }

  static long code(long seed, long row) {
    return Values.below(Values.hash(seed, row, 11) >>> 8, 1000);
  }

  // wide table -----------------------------------------------------------------------------

  static long wide(long seed, long row, int column) {
    return Values.below(Values.hash(seed, row, column), 1_000_000_000);
  }

  // nested table ---------------------------------------------------------------------------

  /** Length of the tags list, or -1 for a null list. */
  static int tagsLength(long seed, long row) {
    long h = Values.hash(seed, row, 1);
    return Values.below(h, 10) == 0 ? -1 : Values.below(h >>> 8, 5);
  }

  /** Tag {@code i} of a row, or null. */
  static byte[] tag(long seed, long row, int i) {
    long h = Values.hash(seed, row, 100 + i);
    return Values.below(h, 20) == 0 ? null : Values.ascii("t" + Values.below(h >>> 8, 1000));
  }

  /** Entries of the attrs map, or -1 for a null map. */
  static int attrsLength(long seed, long row) {
    long h = Values.hash(seed, row, 2);
    return Values.below(h, 10) == 0 ? -1 : Values.below(h >>> 8, 4);
  }

  static byte[] attrKey(int i) {
    return Values.ascii("k" + i);
  }

  static boolean attrValueIsNull(long seed, long row, int i) {
    return Values.below(Values.hash(seed, row, 200 + i), 15) == 0;
  }

  static long attrValue(long seed, long row, int i) {
    return Values.hash(seed, row, 200 + i) >> 16;
  }

  static boolean pointIsNull(long seed, long row) {
    return Values.below(Values.hash(seed, row, 3), 10) == 0;
  }

  static double pointX(long seed, long row) {
    return Values.unitDouble(Values.hash(seed, row, 300));
  }

  static double pointY(long seed, long row) {
    return Values.unitDouble(Values.hash(seed, row, 301));
  }

  /** Events of a row, or -1 for a null list. */
  static int eventsLength(long seed, long row) {
    long h = Values.hash(seed, row, 4);
    return Values.below(h, 10) == 0 ? -1 : Values.below(h >>> 8, 4);
  }

  static boolean eventIsNull(long seed, long row, int i) {
    return Values.below(Values.hash(seed, row, 400 + i), 12) == 0;
  }

  static int eventKind(long seed, long row, int i) {
    return Values.below(Values.hash(seed, row, 400 + i) >>> 8, 7);
  }

  static double eventValue(long seed, long row, int i) {
    return Values.unitDouble(Values.hash(seed, row, 500 + i));
  }
}
