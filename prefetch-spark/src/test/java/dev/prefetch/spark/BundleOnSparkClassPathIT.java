package dev.prefetch.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.parquet.testing.WritingCodecs;
import dev.prefetch.parquet.testing.WritingCodecs.Lz4Framing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle jar works the way users deploy it: a Spark application in a JVM of its own whose class
 * path is exactly Spark 4.2's runtime class path (spark-sql and its runtime dependencies, at
 * Spark's versions: the {@code prefetch-spark-classpath} module) plus {@code
 * prefetch-spark-*-bundle.jar}, nothing of this project's modules or tests. The application ({@code
 * src/it/BundleCheck.java}, compiled by the {@code java} launcher against that class path) reads
 * Parquet files of every codec the reader supports and ORC files of every ORC codec, with Spark's
 * built-in readers and with {@code format("prefetch")}, and compares every row: once in {@code
 * local[2]} on the source's default path (files this small are read on the task's thread), and once
 * with producers on every file, with two executors in JVMs of their own ({@code local-cluster},
 * over a Spark home laid out from the same jars) that load the bundle as {@code spark.jars} ships
 * it. The driver's output is kept in {@code target/bundle-check}.
 *
 * <p>Spark's built-in readers have no BROTLI codec (for ORC, Spark ships orc-core without brotli4j)
 * and read legacy Parquet LZ4 only in Hadoop's framing, so those files are compared with Spark's
 * read of the same rows written uncompressed. The prefetch source reads every one of them, on the
 * executors too: it decompresses ORC files, their metadata included, with its own codecs and the
 * brotli4j the bundle carries, never with the codecs of Spark's orc-core, which sits in the class
 * loader above the bundle's and cannot see brotli4j.
 */
class BundleOnSparkClassPathIT {

  private static final int ROWS = 20_000;

  @TempDir static Path dir;

  /** The driver's table arguments: {@code name|format|path[|reference]}. */
  private static final List<String> TABLES = new ArrayList<>();

  private record ParquetCodec(
      String name, CompressionCodecName codec, WritingCodecs codecs, boolean sparkReads) {}

  @BeforeAll
  static void writeFiles() throws IOException {
    List<ParquetCodec> parquet =
        List.of(
            new ParquetCodec(
                "uncompressed", CompressionCodecName.UNCOMPRESSED, WritingCodecs.defaults(), true),
            new ParquetCodec("snappy", CompressionCodecName.SNAPPY, WritingCodecs.defaults(), true),
            new ParquetCodec("gzip", CompressionCodecName.GZIP, WritingCodecs.defaults(), true),
            new ParquetCodec("zstd", CompressionCodecName.ZSTD, WritingCodecs.defaults(), true),
            new ParquetCodec(
                "lz4-raw", CompressionCodecName.LZ4_RAW, WritingCodecs.defaults(), true),
            new ParquetCodec(
                "lz4-hadoop", CompressionCodecName.LZ4, WritingCodecs.defaults(), true),
            new ParquetCodec(
                "lz4-one-block",
                CompressionCodecName.LZ4,
                new WritingCodecs(Lz4Framing.RAW, false, false),
                false),
            new ParquetCodec(
                "brotli", CompressionCodecName.BROTLI, WritingCodecs.defaults(), false));
    Path reference = null;
    for (int i = 0; i < parquet.size(); i++) {
      ParquetCodec codec = parquet.get(i);
      Path table = dir.resolve("parquet-" + codec.name());
      WriterVersion version = i % 2 == 0 ? WriterVersion.PARQUET_1_0 : WriterVersion.PARQUET_2_0;
      writeParquet(table.resolve("data.parquet"), codec, version);
      if (reference == null) {
        reference = table;
      }
      TABLES.add(
          "parquet-"
              + codec.name()
              + "|parquet|"
              + table
              + (codec.sparkReads() ? "" : "|" + reference));
    }
    Path orcReference = dir.resolve("orc-none");
    for (CompressionKind kind : CompressionKind.values()) {
      String name = "orc-" + kind.name().toLowerCase(Locale.ROOT);
      Path table = dir.resolve(name);
      writeOrc(table.resolve("data.orc"), kind);
      // Spark ships orc-core without brotli4j, so its ORC reader cannot read BROTLI.
      TABLES.add(
          name + "|orc|" + table + (kind == CompressionKind.BROTLI ? "|" + orcReference : ""));
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void everyCodecReadsAsSparksOwnReadersWithOnlySparksJarsAndTheBundle() throws Exception {
    Run run = runDriver("local", List.of("local[2]", "--variants", "default"), Map.of());
    assertThat(run.okLines()).as(run.describe()).hasSize(TABLES.size());
    assertThat(run.exitCode).as(run.describe()).isZero();
    assertThat(run.stdout).as(run.describe()).contains("BUNDLE file:" + bundleJar());
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void executorsInJvmsOfTheirOwnReadThroughTheBundleSparkShipsThem() throws Exception {
    Path sparkHome = dir.resolve("spark-home");
    Path jars = Files.createDirectories(sparkHome.resolve("jars"));
    for (String jar : sparkClassPath()) {
      Path source = Path.of(jar);
      Files.createSymbolicLink(jars.resolve(source.getFileName()), source);
    }
    List<String> args =
        List.of(
            "local-cluster[2,1,1024]",
            "--conf",
            "spark.jars=" + bundleJar(),
            "--conf",
            "spark.executor.memory=1g",
            "--variants",
            "producers",
            "--executors",
            "2");
    Run run =
        runDriver(
            "cluster",
            args,
            Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_SCALA_VERSION", "2.13"));
    // Every table, ORC's BROTLI too: the bundle decodes ORC itself, with the brotli4j it carries,
    // in the class loader Spark gives spark.jars on the executors.
    assertThat(run.okLines()).as(run.describe()).hasSize(TABLES.size());
    assertThat(run.exitCode).as(run.describe()).isZero();
    // Both executors read: the tasks ran in the executors' JVMs, not in the driver's.
    assertThat(run.stdout).as(run.describe()).contains("EXECUTORS [0, 1]");
  }

  private record Run(int exitCode, String stdout, String stderr) {
    List<String> okLines() {
      return stdout.lines().filter(line -> line.startsWith("OK ")).collect(Collectors.toList());
    }

    String describe() {
      List<String> errors = stderr.lines().collect(Collectors.toList());
      return "exit "
          + exitCode
          + "\n--- stdout\n"
          + stdout
          + "\n--- stderr (last lines)\n"
          + String.join("\n", errors.subList(Math.max(0, errors.size() - 60), errors.size()));
    }
  }

  /** Runs BundleCheck in a JVM of its own on Spark's jars and the bundle, and waits for it. */
  private static Run runDriver(String name, List<String> driverArgs, Map<String, String> env)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Arrays.asList(property("prefetch.spark.jvm.options").trim().split("\\s+")));
    command.add("-cp");
    List<String> classPath = new ArrayList<>(sparkClassPath());
    classPath.add(bundleJar().toString());
    command.add(String.join(java.io.File.pathSeparator, classPath));
    command.add(property("prefetch.bundle.driver"));
    command.addAll(driverArgs);
    command.addAll(TABLES);
    Path stdout = dir.resolve(name + ".out");
    Path stderr = dir.resolve(name + ".err");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    builder.environment().remove("SPARK_HOME");
    builder.environment().putAll(env);
    Process process = builder.start();
    Path kept = Files.createDirectories(Path.of(property("prefetch.bundle.output")));
    try {
      if (!process.waitFor(200, TimeUnit.SECONDS)) {
        throw new AssertionError(
            "the driver did not finish in 200 s:\n"
                + new Run(-1, Files.readString(stdout), Files.readString(stderr)).describe());
      }
    } finally {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      Files.copy(stdout, kept.resolve(stdout.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(stderr, kept.resolve(stderr.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }
    return new Run(
        process.exitValue(),
        Files.readString(stdout, StandardCharsets.UTF_8),
        Files.readString(stderr, StandardCharsets.UTF_8));
  }

  private static List<String> sparkClassPath() throws IOException {
    String text = Files.readString(Path.of(property("prefetch.spark.classpath"))).trim();
    return Arrays.asList(text.split(java.io.File.pathSeparator));
  }

  private static Path bundleJar() {
    Path jar = Path.of(property("prefetch.bundle.jar"));
    assertThat(jar).as("the bundle jar (built in the package phase)").isRegularFile();
    return jar;
  }

  private static String property(String key) {
    String value = System.getProperty(key);
    assertThat(value).as("system property " + key + " (set by the failsafe plugin)").isNotNull();
    return value;
  }

  // ------------------------------------------------------------------ the files

  private static final String PARQUET_SCHEMA =
      "message m { required int64 id; optional int32 qty; optional double price;"
          + " optional binary flag (STRING); optional binary comment (STRING); optional boolean ok;"
          + " optional int32 day (DATE); optional int64 amount (DECIMAL(18,2)); }";

  private static final String[] FLAGS = {"A", "N", "R"};

  private static void writeParquet(Path file, ParquetCodec codec, WriterVersion version)
      throws IOException {
    MessageType type = MessageTypeParser.parseMessageType(PARQUET_SCHEMA);
    SimpleGroupFactory groups = new SimpleGroupFactory(type);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(type)
            .withCodecFactory(codec.codecs())
            .withCompressionCodec(codec.codec())
            .withWriterVersion(version)
            .withPageSize(8 << 10)
            .withRowGroupSize(256L << 10)
            .build()) {
      for (int id = 0; id < ROWS; id++) {
        Group g = groups.newGroup().append("id", (long) id);
        if (id % 11 != 0) {
          g.append("qty", id % 50);
        }
        if (id % 13 != 0) {
          g.append("price", id * 0.25);
        }
        g.append("flag", FLAGS[id % 3]);
        if (id % 17 != 0) {
          g.append("comment", comment(id));
        }
        g.append("ok", id % 2 == 0);
        g.append("day", 18_000 + id % 1000);
        g.append("amount", id * 101L);
        writer.write(g);
      }
    }
  }

  private static String comment(int id) {
    return "c" + (id * 7919L % 100_000) + " quick brown fox " + (id % 7);
  }

  private static void writeOrc(Path file, CompressionKind kind) throws IOException {
    TypeDescription schema =
        TypeDescription.fromString(
            "struct<id:bigint,qty:int,price:double,flag:string,comment:string,ok:boolean,"
                + "day:date,amount:decimal(18,2)>");
    Files.createDirectories(file.getParent());
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration())
                .setSchema(schema)
                .compress(kind)
                .stripeSize(128L << 10)
                .bufferSize(16 << 10)
                .rowIndexStride(2_000))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      LongColumnVector id = (LongColumnVector) batch.cols[0];
      LongColumnVector qty = (LongColumnVector) batch.cols[1];
      DoubleColumnVector price = (DoubleColumnVector) batch.cols[2];
      BytesColumnVector flag = (BytesColumnVector) batch.cols[3];
      BytesColumnVector comment = (BytesColumnVector) batch.cols[4];
      LongColumnVector ok = (LongColumnVector) batch.cols[5];
      LongColumnVector day = (LongColumnVector) batch.cols[6];
      DecimalColumnVector amount = (DecimalColumnVector) batch.cols[7];
      for (int row = 0; row < ROWS; row++) {
        int r = batch.size++;
        id.vector[r] = row;
        setNull(qty, r, row % 11 == 0);
        qty.vector[r] = row % 50;
        setNull(price, r, row % 13 == 0);
        price.vector[r] = row * 0.25;
        flag.setVal(r, FLAGS[row % 3].getBytes(StandardCharsets.UTF_8));
        setNull(comment, r, row % 17 == 0);
        if (row % 17 != 0) {
          comment.setVal(r, comment(row).getBytes(StandardCharsets.UTF_8));
        }
        ok.vector[r] = row % 2 == 0 ? 1 : 0;
        day.vector[r] = 18_000L + row % 1000;
        amount.set(r, HiveDecimal.create(java.math.BigInteger.valueOf(row * 101L), 2));
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      writer.addRowBatch(batch);
    }
  }

  private static void setNull(
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector column, int r, boolean isNull) {
    column.isNull[r] = isNull;
    if (isNull) {
      column.noNulls = false;
    }
  }
}
