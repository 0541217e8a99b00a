package dev.prefetch.testkit.gen;

import java.util.Locale;
import java.util.Objects;

/**
 * What to generate: a table kind, its size and the writer's layout settings.
 *
 * @param format "parquet" or "orc"
 * @param kind the table
 * @param rows rows to write
 * @param columns columns of a {@link Kind#WIDE} table (ignored for the others)
 * @param rowGroups target row groups / stripes (by row count), or 0 to cut by {@code rowGroupBytes}
 * @param rowGroupBytes row group (Parquet block) or stripe size in bytes
 * @param pageBytes Parquet page size in bytes (ORC: compression buffer size)
 * @param codec compression codec name (none, snappy, zstd, gzip/zlib, lz4)
 * @param dictionary whether dictionary encoding is allowed
 * @param statistics whether column statistics are written (Parquet)
 * @param pageIndex whether page indexes (ColumnIndex) are written (Parquet)
 * @param seed the seed of every value
 */
public record GenSpec(
    String format,
    Kind kind,
    long rows,
    int columns,
    int rowGroups,
    long rowGroupBytes,
    int pageBytes,
    String codec,
    boolean dictionary,
    boolean statistics,
    boolean pageIndex,
    long seed) {

  /** The generated tables. */
  public enum Kind {
    /** 12 mixed columns: numbers, strings of low and high cardinality, nulls, dates, decimals. */
    SCAN,
    /** {@code columns} int64 columns, cut into {@code rowGroups} row groups. */
    WIDE,
    /** Lists, maps, structs and a list of structs. */
    NESTED;

    /** Parses a kind name, case-insensitively. */
    public static Kind parse(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "unknown kind '" + name + "'; expected scan, wide or nested");
      }
    }
  }

  public static final long DEFAULT_SEED = 20_240_601L;
  public static final long DEFAULT_ROWS = 4_000_000L;
  public static final long DEFAULT_ROW_GROUP_BYTES = 128L << 20;
  public static final int DEFAULT_PAGE_BYTES = 1 << 20;

  public GenSpec {
    Objects.requireNonNull(format, "format is null");
    Objects.requireNonNull(kind, "kind is null");
    Objects.requireNonNull(codec, "codec is null");
    format = format.toLowerCase(Locale.ROOT);
    codec = codec.toLowerCase(Locale.ROOT);
    GenCodec.named(codec); // rejects an unknown codec here rather than when writing
    if (!format.equals("parquet") && !format.equals("orc")) {
      throw new IllegalArgumentException(
          "unknown format '" + format + "'; expected parquet or orc");
    }
    if (rows < 0) {
      throw new IllegalArgumentException("rows must not be negative: " + rows);
    }
    if (kind == Kind.WIDE && columns < 1) {
      throw new IllegalArgumentException("a wide table needs at least one column: " + columns);
    }
    if (rowGroups < 0) {
      throw new IllegalArgumentException("row groups must not be negative: " + rowGroups);
    }
    if (rowGroupBytes < 1024) {
      throw new IllegalArgumentException(
          "row group size must be at least 1024 bytes: " + rowGroupBytes);
    }
    if (pageBytes < 64) {
      throw new IllegalArgumentException("page size must be at least 64 bytes: " + pageBytes);
    }
  }

  /**
   * A table of {@code rows} rows cut into {@code rowGroups} row groups (or stripes) by count, with
   * the default columns, dictionaries, statistics and page indexes.
   */
  public static GenSpec inRowGroups(
      String format, Kind kind, long rows, int rowGroups, int pageBytes, String codec, long seed) {
    return new GenSpec(
        format,
        kind,
        rows,
        0,
        rowGroups,
        DEFAULT_ROW_GROUP_BYTES,
        pageBytes,
        codec,
        true,
        true,
        true,
        seed);
  }

  /** The default scan table of {@code rows} rows in {@code format}. */
  public static GenSpec scan(String format, long rows) {
    return new GenSpec(
        format,
        Kind.SCAN,
        rows,
        0,
        0,
        DEFAULT_ROW_GROUP_BYTES,
        DEFAULT_PAGE_BYTES,
        "snappy",
        true,
        true,
        true,
        DEFAULT_SEED);
  }

  /** Rows per row group when cutting by count, or 0 when cutting by bytes. */
  public long rowsPerGroup() {
    if (rowGroups == 0) {
      return 0;
    }
    return Math.max(1, (rows + rowGroups - 1) / rowGroups);
  }

  /** A stable text of every parameter, to tell whether an existing file was made alike. */
  public String fingerprint() {
    return format
        + "/"
        + kind.name().toLowerCase(Locale.ROOT)
        + "/rows="
        + rows
        + "/columns="
        + columns
        + "/rowGroups="
        + rowGroups
        + "/rowGroupBytes="
        + rowGroupBytes
        + "/pageBytes="
        + pageBytes
        + "/codec="
        + codec
        + "/dictionary="
        + dictionary
        + "/statistics="
        + statistics
        + "/pageIndex="
        + pageIndex
        + "/seed="
        + seed;
  }
}
