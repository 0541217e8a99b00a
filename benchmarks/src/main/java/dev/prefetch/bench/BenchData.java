package dev.prefetch.bench;

import dev.prefetch.testing.Checksum;
import dev.prefetch.testkit.gen.DataSets;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProgressBar;
import dev.prefetch.testkit.storage.SimulatedFileSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The benchmark data and storage models.
 *
 * <p>Files: {@code scan.parquet} and {@code scan.orc}, the CLI's 12-column scan table, in the
 * directory of the system property {@value #DIR_PROPERTY} (default {@code target/bench-data}), with
 * {@value #ROWS_PROPERTY} rows (default 4,000,000). They are generated on first use and reused
 * afterwards. {@link #main} generates them ahead of a run.
 *
 * <p>{@link #smallFiles} holds the same Parquet table as many small files.
 *
 * <p>Storage: "local" reads the files directly; "remote" reads them through the simulated object
 * store at {@value #REMOTE_LATENCY_MS} ms per request and {@value #REMOTE_BANDWIDTH_MBPS} MiB/s per
 * stream.
 */
public final class BenchData {

  public static final String DIR_PROPERTY = "bench.dir";
  public static final String ROWS_PROPERTY = "bench.rows";
  public static final String SMALL_FILE_ROWS_PROPERTY = "bench.small-file-rows";
  public static final long DEFAULT_SMALL_FILE_ROWS = 20_000;
  public static final long REMOTE_LATENCY_MS = 20;
  public static final double REMOTE_BANDWIDTH_MBPS = 64;

  private BenchData() {}

  public static Path dir() {
    return Path.of(System.getProperty(DIR_PROPERTY, "target/bench-data")).toAbsolutePath();
  }

  public static long rows() {
    return Long.getLong(ROWS_PROPERTY, GenSpec.DEFAULT_ROWS);
  }

  /** The scan table in {@code format} ("parquet" or "orc"), generated if missing. */
  public static synchronized Path scanFile(String format) {
    Path file = dir().resolve("scan." + format);
    try {
      DataSets.ensure(GenSpec.scan(format, rows()), file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot generate " + file, e);
    }
    return file;
  }

  /**
   * The scan table in Parquet as many small files of {@value #SMALL_FILE_ROWS_PROPERTY} rows each
   * (default {@value #DEFAULT_SMALL_FILE_ROWS}; the last may hold fewer), one row group each, as
   * DuckDB writes them (snappy, every column optional), in a directory of their own: consecutive
   * pieces of {@link #scanFile}, so that read one after another they give the same values, and the
   * same checksum. DuckDB writes them, since a data lake's small files mostly come from engines
   * that write many at once. Generated if missing (into a temporary directory moved into place,
   * stamped with the generation parameters).
   *
   * @return the files in row order
   */
  public static synchronized List<Path> smallFiles() {
    long perFile = Long.getLong(SMALL_FILE_ROWS_PROPERTY, DEFAULT_SMALL_FILE_ROWS);
    if (perFile < 1) {
      throw new IllegalArgumentException(
          SMALL_FILE_ROWS_PROPERTY + " must be positive: " + perFile);
    }
    long rows = rows();
    Path source = scanFile("parquet");
    Path files = dir().resolve("scan-small-duckdb-" + perFile);
    String stamp = GenSpec.scan("parquet", rows).fingerprint() + "/duckdb/rowsPerFile=" + perFile;
    int count = Math.toIntExact((rows + perFile - 1) / perFile);
    try {
      Path stampFile = files.resolve("spec");
      if (!java.nio.file.Files.isRegularFile(stampFile)
          || !java.nio.file.Files.readString(stampFile).equals(stamp)) {
        Path partial = dir().resolve("scan-small-duckdb-" + perFile + ".partial");
        deleteTree(partial);
        java.nio.file.Files.createDirectories(partial);
        try (java.sql.Connection duck = java.sql.DriverManager.getConnection("jdbc:duckdb:");
            java.sql.Statement sql = duck.createStatement()) {
          sql.execute(
              "CREATE TABLE t AS SELECT row_number() OVER () - 1 AS rn, * FROM read_parquet('"
                  + source
                  + "')");
          for (int i = 0; i < count; i++) {
            long first = i * perFile;
            Path out = partial.resolve(smallFileName(i));
            sql.execute(
                "COPY (SELECT * EXCLUDE rn FROM t WHERE rn >= "
                    + first
                    + " AND rn < "
                    + (first + perFile)
                    + " ORDER BY rn) TO '"
                    + out
                    + "' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE "
                    + perFile
                    + ")");
          }
        } catch (java.sql.SQLException e) {
          throw new IOException("DuckDB could not write the small files into " + partial, e);
        }
        java.nio.file.Files.writeString(partial.resolve("spec"), stamp);
        deleteTree(files);
        java.nio.file.Files.move(partial, files);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot generate " + files, e);
    }
    List<Path> list = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      list.add(files.resolve(smallFileName(i)));
    }
    return list;
  }

  private static String smallFileName(int index) {
    return String.format(java.util.Locale.ROOT, "part-%05d.parquet", index);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!java.nio.file.Files.exists(root)) {
      return;
    }
    try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(p);
      }
    }
  }

  /**
   * The checksum parquet-hadoop or orc-core reads from the scan table: computed once and kept
   * beside the file ({@code scan.FORMAT.checksum}, with the name of the hash), so that each trial's
   * correctness check costs one scan, not two.
   */
  public static synchronized String expectedChecksum(String format) {
    Path file = scanFile(format);
    Path kept = file.resolveSibling(file.getFileName() + ".checksum");
    try {
      String prefix = Checksum.ALGORITHM + " ";
      if (java.nio.file.Files.isRegularFile(kept)
          && java.nio.file.Files.getLastModifiedTime(kept)
                  .compareTo(java.nio.file.Files.getLastModifiedTime(file))
              >= 0) {
        String line = java.nio.file.Files.readString(kept).strip();
        if (line.startsWith(prefix)) {
          return line.substring(prefix.length());
        }
        // kept by another version of the hash: compute it again
      }
      String checksum =
          Contender.library(new Configuration(), List.of(), null, null, null)
              .scan(new org.apache.hadoop.fs.Path(file.toUri()), format, false, ProgressBar.none())
              .checksum();
      java.nio.file.Files.writeString(kept, prefix + checksum);
      return checksum;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The Hadoop configuration of a storage model. */
  public static Configuration configuration(String storage) {
    Configuration conf = new Configuration();
    switch (storage) {
      case "local" -> {}
      case "remote" ->
          SimulatedFileSystem.configure(conf, REMOTE_LATENCY_MS, REMOTE_BANDWIDTH_MBPS);
      default ->
          throw new IllegalArgumentException(
              "unknown storage '" + storage + "'; expected local or remote");
    }
    return conf;
  }

  /** The path of a local file as read under a storage model. */
  public static org.apache.hadoop.fs.Path path(String storage, Path file) {
    return storage.equals("remote")
        ? SimulatedFileSystem.pathOf(file)
        : new org.apache.hadoop.fs.Path(file.toUri());
  }

  /** Generates the benchmark files: {@code BenchData [dir [rows]]}. */
  public static void main(String[] args) {
    if (args.length > 0) {
      System.setProperty(DIR_PROPERTY, args[0]);
    }
    if (args.length > 1) {
      System.setProperty(ROWS_PROPERTY, args[1]);
    }
    for (String format : new String[] {"parquet", "orc"}) {
      long start = System.nanoTime();
      Path file = scanFile(format);
      String checksum = expectedChecksum(format);
      System.out.printf(
          "%s ready (%d rows, checksum %s) in %.1f s%n",
          file, rows(), checksum, (System.nanoTime() - start) / 1e9);
    }
    long start = System.nanoTime();
    List<Path> small = smallFiles();
    System.out.printf(
        "%s ready (%d files) in %.1f s%n",
        small.get(0).getParent(), small.size(), (System.nanoTime() - start) / 1e9);
  }
}
