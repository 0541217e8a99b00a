package dev.prefetch.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB (in process, through JDBC) scanning Parquet files so that every value of the selected
 * columns is decoded, with the lightest aggregate that touches each: {@code SELECT count(*),
 * sum(n), sum(d - DATE '1970-01-01'), sum(epoch_us(t)), sum(b::INTEGER), sum(hash(s)), ... FROM
 * read_parquet([...])}: a sum per number (integers, decimals, floating point), per date (its days),
 * per timestamp (its microseconds) and per boolean, and the sum of the hashes of every string or
 * binary value. That is the work per value of the benchmarks' consumer of the JVM readers ({@link
 * dev.prefetch.testkit.scan.ValueSums}: a sum per column, a hash of each string's bytes). One
 * connection, with its thread count set, for a benchmark trial.
 */
final class DuckDbScan implements AutoCloseable {

  private final Connection connection;
  private final String query;

  /**
   * A scan of {@code columns} of {@code files} with {@code threads} threads; the connection opens
   * here, and the first scan checks that DuckDB counts {@code expectedRows} rows.
   */
  DuckDbScan(List<Path> files, List<String> columns, int threads, long expectedRows)
      throws SQLException {
    StringBuilder source = new StringBuilder(" FROM read_parquet([");
    for (int i = 0; i < files.size(); i++) {
      source
          .append(i == 0 ? "'" : ", '")
          .append(files.get(i).toString().replace("'", "''"))
          .append("'");
    }
    source.append("])");
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try {
      Map<String, String> types = columnTypes(source.toString());
      StringBuilder sql = new StringBuilder("SELECT count(*)");
      for (String column : columns) {
        String type = types.get(column);
        if (type == null) {
          throw new IllegalArgumentException("DuckDB finds no column '" + column + "' in " + files);
        }
        sql.append(", ").append(aggregate("\"" + column + "\"", type));
      }
      query = sql.append(source).toString();
      try (Statement s = connection.createStatement()) {
        s.execute("SET threads = " + threads);
      }
      long rows = Long.parseLong(scan().split(",", 2)[0]);
      if (rows != expectedRows) {
        throw new IllegalStateException(
            "DuckDB counted "
                + rows
                + " rows in "
                + (files.size() == 1 ? files.get(0) : files.size() + " files from " + files.get(0))
                + ", expected "
                + expectedRows);
      }
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** Each column's DuckDB type, by name. */
  private Map<String, String> columnTypes(String source) throws SQLException {
    Map<String, String> types = new HashMap<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("DESCRIBE SELECT *" + source)) {
      while (rs.next()) {
        types.put(rs.getString("column_name"), rs.getString("column_type"));
      }
    }
    return types;
  }

  /** The lightest aggregate that reads every value of a column of DuckDB type {@code type}. */
  static String aggregate(String column, String type) {
    String t = type.toUpperCase(Locale.ROOT);
    if (t.equals("BOOLEAN")) {
      return "sum(" + column + "::INTEGER)";
    }
    if (t.equals("DATE")) {
      return "sum(" + column + " - DATE '1970-01-01')";
    }
    if (t.startsWith("TIMESTAMP")) {
      return "sum(epoch_us(" + column + "))";
    }
    if (t.matches("(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT))|FLOAT|DOUBLE|DECIMAL.*")) {
      return "sum(" + column + ")";
    }
    return "sum(hash(" + column + "))";
  }

  /** The count and the per-column sums, as text. */
  String scan() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      rs.next();
      StringBuilder out = new StringBuilder();
      int columns = rs.getMetaData().getColumnCount();
      for (int c = 1; c <= columns; c++) {
        out.append(c == 1 ? "" : ",").append(rs.getString(c));
      }
      return out.toString();
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
