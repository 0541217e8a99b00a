package dev.prefetch.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * DuckDB (in process, through JDBC) scanning Parquet files so that every value of the selected
 * columns is decoded: {@code SELECT count(*), sum(hash(c1)), sum(hash(c2)), ... FROM
 * read_parquet([...])}. One connection, with its thread count set, for a benchmark trial.
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
    StringBuilder sql = new StringBuilder("SELECT count(*)");
    for (String column : columns) {
      sql.append(", sum(hash(\"").append(column).append("\"))");
    }
    sql.append(" FROM read_parquet([");
    for (int i = 0; i < files.size(); i++) {
      sql.append(i == 0 ? "'" : ", '")
          .append(files.get(i).toString().replace("'", "''"))
          .append("'");
    }
    query = sql.append("])").toString();
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try {
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

  /** The count and the per-column hash sums, as text. */
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
