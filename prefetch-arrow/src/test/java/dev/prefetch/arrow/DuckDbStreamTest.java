package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DuckDB reads our scan through the C Data Interface ({@code registerArrowStream}) and computes the
 * same per-column aggregates as over its own {@code read_parquet} of the same file.
 */
@Timeout(120)
class DuckDbStreamTest {

  @TempDir static Path dir;
  static Path parquet;

  @BeforeAll
  static void writeFile() throws IOException {
    parquet = ArrowTestFiles.writeParquet(dir.resolve("all.parquet"), 5000, 5);
  }

  /** Aggregates per column, in a form both sides compute in the same types. */
  private static Map<String, String> aggregates() {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("rows", "count(*)");
    for (String c :
        List.of(
            "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "d9", "d18", "d38",
            "id")) {
      a.put(
          c,
          "count("
              + c
              + ") || ' ' || min("
              + c
              + ") || ' ' || max("
              + c
              + ") || ' ' || sum("
              + c
              + ")");
    }
    a.put("b", "count(b) || ' ' || count_if(b)");
    a.put("s", "count(s) || ' ' || min(s) || ' ' || max(s) || ' ' || sum(strlen(s))");
    a.put(
        "bin",
        "count(bin) || ' ' || min(bin) || ' ' || max(bin) || ' ' " + "|| sum(octet_length(bin))");
    for (String c : List.of("fixed5", "dt", "tus", "tsms", "tsus", "tsns")) {
      a.put(c, "count(" + c + ") || ' ' || min(" + c + ") || ' ' || max(" + c + ")");
    }
    a.put(
        "lst",
        "count(lst) || ' ' || sum(len(lst)) || ' ' || sum(list_sum(lst)) || ' ' "
            + "|| sum(list_count(lst))");
    a.put("lstr", "count(lstr) || ' ' || sum(len(lstr)) || ' ' || max(list_string_agg(lstr))");
    a.put(
        "m",
        "count(m) || ' ' || sum(cardinality(m)) || ' ' || sum(list_sum(map_values(m)))"
            + " || ' ' || max(list_string_agg(map_keys(m)))");
    a.put(
        "st",
        "count(st) || ' ' || count(st.x) || ' ' || sum(st.x) || ' ' || max(st.y) || ' ' "
            + "|| count(st.z) || ' ' || sum(st.z.q)");
    a.put(
        "lol",
        "count(lol) || ' ' || sum(len(lol)) || ' ' || sum(len(flatten(lol))) || ' ' "
            + "|| sum(list_sum(flatten(lol)))");
    a.put(
        "lu",
        "count(lu) || ' ' || sum(len(lu)) || ' ' || sum(list_sum(lu)) || ' ' "
            + "|| max(list_max(lu))");
    return a;
  }

  private static Map<String, String> query(Statement st, String from) throws SQLException {
    Map<String, String> aggregates = aggregates();
    StringBuilder sql = new StringBuilder("SELECT ");
    List<String> names = new ArrayList<>(aggregates.keySet());
    for (int i = 0; i < names.size(); i++) {
      sql.append(i == 0 ? "" : ", ")
          .append(aggregates.get(names.get(i)))
          .append(" AS \"")
          .append(names.get(i))
          .append('"');
    }
    sql.append(" FROM ").append(from);
    Map<String, String> out = new LinkedHashMap<>();
    try (ResultSet rs = st.executeQuery(sql.toString())) {
      assertThat(rs.next()).isTrue();
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        out.put(md.getColumnLabel(i), rs.getString(i));
      }
    }
    return out;
  }

  private static Map<String, String> types(Statement st, String from) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + from)) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    }
    return out;
  }

  /**
   * Exports a fresh read of the test file into {@code stream}, which DuckDB then knows as {@code
   * name}.
   */
  private static void register(
      Connection conn,
      String name,
      ArrowArrayStream stream,
      ReadOptions options,
      BufferAllocator allocator)
      throws IOException, SQLException {
    PrefetchArrowReader reader =
        PrefetchArrowReader.open(DataFile.of(parquet), options, ReadContext.defaults(), allocator);
    reader.exportTo(stream);
    conn.unwrap(DuckDBConnection.class).registerArrowStream(name, stream);
  }

  @Test
  void duckDbReadingTheCStreamAgreesWithItsOwnParquetReader() throws Exception {
    ReadOptions options =
        ReadOptions.builder()
            .columns(ArrowTestFiles.DUCKDB_COLUMNS)
            .batchSize(1000)
            .parallelism(2)
            .property("prefetch.min-read-bytes", "0")
            .build();
    try (BufferAllocator allocator = new RootAllocator()) {
      try (Connection conn = DriverManager.getConnection("jdbc:duckdb:");
          Statement st = conn.createStatement()) {
        // One thread, so that floating-point sums add up in the same order on both sides.
        st.execute("SET threads TO 1");
        String own = "read_parquet('" + parquet + "')";
        Map<String, String> expected = query(st, own);
        Map<String, String> expectedTypes = types(st, own);

        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
          register(conn, "scan", stream, options, allocator);
          Map<String, String> actual = query(st, "scan");
          assertThat(actual).containsExactlyEntriesOf(expected);
          assertThat(actual.get("rows")).isEqualTo("5000");
        }
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
          register(conn, "typed", stream, options, allocator);
          Map<String, String> actualTypes = types(st, "typed");
          for (String column : ArrowTestFiles.DUCKDB_COLUMNS) {
            assertThat(actualTypes.get(column)).as(column).isEqualTo(expectedTypes.get(column));
          }
        }
      }
      assertThat(allocator.getAllocatedMemory()).isZero();
    }
  }
}
