package dev.prefetch.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/**
 * A table shaped like TPC-H's {@code lineitem}, as other writers lay it out: written to Parquet by
 * DuckDB with its defaults (122,880-row row groups, dictionary-encoded strings where they repeat,
 * snappy) and to ORC by orc-core's writer with its defaults (64 MiB stripes, ZLIB, 10,000-row index
 * strides), from the same rows.
 *
 * <p>Sixteen columns: four integer keys (three int64, the line number int32), four DECIMAL(15,2)
 * (INT64 in Parquet), three DATEs, four low-cardinality strings and one 10-42 character comment of
 * high cardinality. The values are deterministic hashes of the row number, not TPC-H's generator
 * (DuckDB's {@code tpch} extension is not bundled with its JDBC driver), with TPC-H's ranges and
 * cardinalities.
 *
 * <p>Rows: the system property {@value #ROWS_PROPERTY} (default 6,000,000, TPC-H's scale factor 1).
 * The files are written on first use into {@link BenchData#dir()} and reused while their {@code
 * .spec} companion names the same rows and layout.
 */
public final class LineitemData {

  public static final String ROWS_PROPERTY = "bench.lineitem.rows";
  public static final long DEFAULT_ROWS = 6_000_000;

  /** The layout's version: a change to the SQL below changes it, so old files are rewritten. */
  private static final String LAYOUT = "lineitem-v1";

  /** Every column, in table order. */
  public static final List<String> COLUMNS =
      List.of(
          "l_orderkey",
          "l_partkey",
          "l_suppkey",
          "l_linenumber",
          "l_quantity",
          "l_extendedprice",
          "l_discount",
          "l_tax",
          "l_returnflag",
          "l_linestatus",
          "l_shipdate",
          "l_commitdate",
          "l_receiptdate",
          "l_shipinstruct",
          "l_shipmode",
          "l_comment");

  /** The column groups that the benchmarks time apart: together, every column once. */
  public static final Map<String, List<String>> GROUPS = groups();

  /** Words of TPC-H's comment grammar, cut at hashed offsets into the comment column. */
  private static final String TEXT =
      "carefully final deposits detect slyly agai furiously regular accounts haggle blithely "
          + "ironic packages nag quickly express requests sleep fluffily even pinto beans among "
          + "the bold ideas use daringly pending theodolites wake silent foxes cajole alongside "
          + "quiet instructions integrate boldly unusual dependencies ";

  private LineitemData() {}

  private static Map<String, List<String>> groups() {
    Map<String, List<String>> g = new LinkedHashMap<>();
    g.put("integers", List.of("l_orderkey", "l_partkey", "l_suppkey", "l_linenumber"));
    g.put("decimals", List.of("l_quantity", "l_extendedprice", "l_discount", "l_tax"));
    g.put("dates", List.of("l_shipdate", "l_commitdate", "l_receiptdate"));
    g.put("strings", List.of("l_returnflag", "l_linestatus", "l_shipinstruct", "l_shipmode"));
    g.put("comment", List.of("l_comment"));
    return Collections.unmodifiableMap(g);
  }

  /** The columns of a group, or every column for {@code all}. */
  public static List<String> columns(String group) {
    if (group.equals("all")) {
      return COLUMNS;
    }
    List<String> columns = GROUPS.get(group);
    if (columns == null) {
      throw new IllegalArgumentException(
          "unknown column group '" + group + "'; expected all or one of " + GROUPS.keySet());
    }
    return columns;
  }

  public static long rows() {
    return Long.getLong(ROWS_PROPERTY, DEFAULT_ROWS);
  }

  /** The table as DuckDB writes it to Parquet, written if missing. */
  public static synchronized Path parquetFile() {
    Path file = BenchData.dir().resolve("lineitem-duckdb.parquet");
    ensure(file, () -> writeParquet(file));
    return file;
  }

  /** The same rows as orc-core writes them to ORC, written if missing. */
  public static synchronized Path orcFile() {
    Path file = BenchData.dir().resolve("lineitem-orc-core.orc");
    Path parquet = parquetFile();
    ensure(file, () -> writeOrc(parquet, file));
    return file;
  }

  private interface Writing {
    void write() throws IOException, SQLException;
  }

  /** Writes {@code file} unless its spec companion says it holds these rows in this layout. */
  private static void ensure(Path file, Writing writing) {
    Path spec = file.resolveSibling(file.getFileName() + ".spec");
    String wanted = LAYOUT + " rows=" + rows();
    try {
      if (Files.isRegularFile(file)
          && Files.isRegularFile(spec)
          && Files.readString(spec).strip().equals(wanted)) {
        return;
      }
      Files.createDirectories(file.getParent());
      Files.deleteIfExists(spec);
      writing.write();
      Files.writeString(spec, wanted);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** The table's rows as DuckDB SQL, from the row number {@code i}. */
  static String rowsQuery(long rows) {
    String text = "'" + TEXT + "'";
    int textLength = TEXT.length() - 22;
    return "SELECT"
        + " (i // 4 + 1)::BIGINT AS l_orderkey,"
        + " (hash(i, 1) % 200000 + 1)::BIGINT AS l_partkey,"
        + " (hash(i, 2) % 10000 + 1)::BIGINT AS l_suppkey,"
        + " (i % 4 + 1)::INTEGER AS l_linenumber,"
        + " (hash(i, 3) % 50 + 1)::DECIMAL(15,2) AS l_quantity,"
        + " ((hash(i, 4) % 10000000)::BIGINT / 100.0)::DECIMAL(15,2) AS l_extendedprice,"
        + " ((hash(i, 5) % 11)::BIGINT / 100.0)::DECIMAL(15,2) AS l_discount,"
        + " ((hash(i, 6) % 9)::BIGINT / 100.0)::DECIMAL(15,2) AS l_tax,"
        + " (['R', 'A', 'N'])[(hash(i, 7) % 3 + 1)::INTEGER] AS l_returnflag,"
        + " (['O', 'F'])[(hash(i, 8) % 2 + 1)::INTEGER] AS l_linestatus,"
        + " DATE '1992-01-02' + (hash(i, 9) % 2526)::INTEGER AS l_shipdate,"
        + " DATE '1992-01-02' + (hash(i, 9) % 2526)::INTEGER - 30 + (hash(i, 10) % 61)::INTEGER"
        + " AS l_commitdate,"
        + " DATE '1992-01-02' + (hash(i, 9) % 2526)::INTEGER + 1 + (hash(i, 11) % 30)::INTEGER"
        + " AS l_receiptdate,"
        + " (['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])"
        + "[(hash(i, 12) % 4 + 1)::INTEGER] AS l_shipinstruct,"
        + " (['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])"
        + "[(hash(i, 13) % 7 + 1)::INTEGER] AS l_shipmode,"
        + " substr("
        + text
        + ", (1 + hash(i, 14) % "
        + textLength
        + ")::INTEGER, (5 + hash(i, 15) % 17)::INTEGER) || ' ' || substr("
        + text
        + ", (1 + hash(i, 16) % "
        + textLength
        + ")::INTEGER, (4 + hash(i, 17) % 17)::INTEGER) AS l_comment"
        + " FROM range("
        + rows
        + ") t(i)";
  }

  private static void writeParquet(Path file) throws IOException, SQLException {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY ("
              + rowsQuery(rows())
              + ") TO '"
              + partial.toString().replace("'", "''")
              + "' (FORMAT parquet)");
    }
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
  }

  /** The ORC schema: Parquet's types as orc-core names them. */
  static TypeDescription orcSchema() {
    return TypeDescription.fromString(
        "struct<l_orderkey:bigint,l_partkey:bigint,l_suppkey:bigint,l_linenumber:int,"
            + "l_quantity:decimal(15,2),l_extendedprice:decimal(15,2),l_discount:decimal(15,2),"
            + "l_tax:decimal(15,2),l_returnflag:string,l_linestatus:string,l_shipdate:date,"
            + "l_commitdate:date,l_receiptdate:date,l_shipinstruct:string,l_shipmode:string,"
            + "l_comment:string>");
  }

  /**
   * Copies the DuckDB-written rows into orc-core's writer. DuckDB hands decimals over as unscaled
   * longs and dates as days since the epoch, the values ORC's vectors hold.
   */
  private static void writeOrc(Path parquet, Path file) throws IOException, SQLException {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    Files.deleteIfExists(partial);
    TypeDescription schema = orcSchema();
    StringBuilder select = new StringBuilder("SELECT ");
    List<TypeDescription> types = schema.getChildren();
    List<String> names = schema.getFieldNames();
    for (int c = 0; c < names.size(); c++) {
      String name = names.get(c);
      select.append(c == 0 ? "" : ", ");
      switch (types.get(c).getCategory()) {
        case DECIMAL -> select.append("(").append(name).append(" * 100)::BIGINT");
        case DATE -> select.append("(").append(name).append(" - DATE '1970-01-01')::BIGINT");
        default -> select.append(name);
      }
    }
    select
        .append(" FROM read_parquet('")
        .append(parquet.toString().replace("'", "''"))
        .append("')");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(select.toString());
        Writer writer =
            OrcFile.createWriter(
                new org.apache.hadoop.fs.Path(partial.toUri()),
                OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      while (rs.next()) {
        int row = batch.size++;
        for (int col = 0; col < types.size(); col++) {
          switch (types.get(col).getCategory()) {
            case DECIMAL ->
                ((DecimalColumnVector) batch.cols[col])
                    .set(row, HiveDecimal.create(BigInteger.valueOf(rs.getLong(col + 1)), 2));
            case STRING -> {
              byte[] bytes = rs.getString(col + 1).getBytes(StandardCharsets.UTF_8);
              ((BytesColumnVector) batch.cols[col]).setVal(row, bytes);
            }
            default -> ((LongColumnVector) batch.cols[col]).vector[row] = rs.getLong(col + 1);
          }
        }
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      if (batch.size > 0) {
        writer.addRowBatch(batch);
      }
    }
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
    // The local file system's checksum of the partial file, which names a file no longer there.
    Files.deleteIfExists(partial.resolveSibling("." + partial.getFileName() + ".crc"));
  }

  /** Writes the files ahead of a run: {@code LineitemData [dir [rows]]}. */
  public static void main(String[] args) {
    if (args.length > 0) {
      System.setProperty(BenchData.DIR_PROPERTY, args[0]);
    }
    if (args.length > 1) {
      System.setProperty(ROWS_PROPERTY, args[1]);
    }
    long start = System.nanoTime();
    Path orc = orcFile();
    System.out.printf(
        "%s and %s ready (%d rows) in %.1f s%n",
        parquetFile(), orc, rows(), (System.nanoTime() - start) / 1e9);
  }
}
