package dev.prefetch.orc.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/**
 * ORC files from writers other than the orc-core release this project reads with, and from
 * orc-core's legacy settings: the one list of them, with what each holds, for every test that
 * iterates over them.
 *
 * <p>Two kinds of file. <b>Fixtures</b> are committed under {@code orc-writers/} in this module's
 * test resources (and test jar), written once by the scripts beside them: the ORC C++ writer
 * through pyarrow ({@code orc-writers/cpp/make_fixtures.py}) and Trino's writer ({@code
 * orc-writers/trino/make_fixtures.sh}); {@code orc-writers/README.md} tells how to run them.
 * <b>Legacy files</b> are written at test time by {@link #writeLegacy}: orc-core's writer with old
 * settings, then the tail as an old writer left it (through {@link OrcSurgery}).
 *
 * <p>{@link #write} puts both into a directory; {@link #copyFixtures} only the fixtures (for a
 * class path without orc-core's writer).
 */
public final class OrcWriterCorpus {

  /** The writer of the C++ fixtures, as it stamps its files ({@code softwareVersion}). */
  public static final String CPP = "ORC C++ 2.2.2 (pyarrow 25.0.1)";

  /** The writer of the Trino fixtures. */
  public static final String TRINO = "Trino 483 (io.trino:trino-orc)";

  /** The writer of the legacy files: this build's orc-core, tail edited as an old writer's. */
  public static final String ORC_JAVA = "orc-core 2.3.1";

  /** Rows of the legacy files. */
  public static final int LEGACY_ROWS = 3_000;

  private static final String RESOURCES = "/orc-writers/";

  /** What a file holds that a check, a planner or a reference reader sees. */
  public enum Trait {
    /**
     * The footer's content length leaves out the 3-byte header (the C++ writer's habit; orc-core
     * counts it), so the last stripe ends 3 bytes past it.
     */
    CONTENT_LENGTH_WITHOUT_HEADER,
    /** More than one stripe. */
    STRIPES,
    /** One stripe, at offset 3 (right after the header). */
    SINGLE_STRIPE,
    /** A row index with more than one stride in a stripe. */
    STRIDES,
    /** No row index, and a row index stride of 0. */
    NO_ROW_INDEX,
    /** A row index stride in the footer but no row index in the stripes. */
    STRIDE_WITHOUT_ROW_INDEX,
    /** No compression block size in the postscript (its default, 256 KiB, applies). */
    NO_COMPRESSION_BLOCK_SIZE,
    /** No magic in the postscript (the first ORC format): only the header says "ORC". */
    NO_POSTSCRIPT_MAGIC,
    /** No stripe statistics (the first ORC format). */
    NO_STRIPE_STATISTICS,
    /** File version 0.11: run-length encoding version 1 (DIRECT and DICTIONARY encodings). */
    VERSION_0_11,
    /** Dictionary-encoded strings. */
    DICTIONARY_STRINGS,
    /** Directly encoded strings. */
    DIRECT_STRINGS,
    /** Compressed file whose chunks are all stored uncompressed ("original"). */
    ORIGINAL_CHUNKS,
    /**
     * Timestamps before 1970 with a fraction of a second stored with a negative nanosecond part,
     * outside the format's [0, 999999999]: Arrow's ORC adapter hands the C++ writer seconds rounded
     * towards zero and a negative remainder, which it writes to the unsigned NANOS stream. The
     * value meant is seconds * 10^9 + nanos (what Arrow C++ reads back).
     */
    NEGATIVE_NANOS,
    /** A union column. */
    UNION,
    /** A char(n) column (orc-core pads values to n characters, Arrow C++ does not). */
    CHAR,
    /** Decimals of more than 18 digits. */
    WIDE_DECIMALS,
    /** Lists, maps and structs, with nulls. */
    NESTED
  }

  /**
   * One file of the corpus.
   *
   * @param name the file's name (ending in {@code .orc})
   * @param writer who wrote it, with the version
   * @param codec its compression, as orc-core names it
   * @param rows its rows
   * @param stripes its stripes
   * @param rowIndexStride the footer's row index stride (0 for none)
   * @param holds what it holds, in a phrase
   * @param traits what a check, planner or reference sees in it
   * @param path where it is, once written or copied (null in the list of {@link #files()})
   */
  public record OrcWriterFile(
      String name,
      String writer,
      CompressionKind codec,
      long rows,
      int stripes,
      long rowIndexStride,
      String holds,
      Set<Trait> traits,
      Path path) {

    public OrcWriterFile {
      traits = traits.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(traits));
    }

    public boolean has(Trait trait) {
      return traits.contains(trait);
    }

    /** Whether this file is committed (a fixture), not written at test time. */
    public boolean isFixture() {
      return !writer.equals(ORC_JAVA);
    }

    OrcWriterFile at(Path where) {
      return new OrcWriterFile(
          name, writer, codec, rows, stripes, rowIndexStride, holds, traits, where);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final Set<Trait> CPP_TYPES =
      EnumSet.of(
          Trait.CONTENT_LENGTH_WITHOUT_HEADER,
          Trait.STRIPES,
          Trait.STRIDES,
          Trait.DICTIONARY_STRINGS,
          Trait.DIRECT_STRINGS,
          Trait.WIDE_DECIMALS,
          Trait.NESTED);

  private static final Set<Trait> TRINO_TYPES =
      EnumSet.of(
          Trait.STRIPES,
          Trait.STRIDES,
          Trait.DICTIONARY_STRINGS,
          Trait.DIRECT_STRINGS,
          Trait.CHAR,
          Trait.WIDE_DECIMALS,
          Trait.NESTED);

  private static final String CPP_TYPES_HOLD =
      "every type the C++ writer takes from Arrow (booleans, integers of every width with"
          + " extremes, floats with NaN and infinities, dictionary and direct strings, binary,"
          + " decimal(10,2) and decimal(38,6), dates, timestamp and timestamp with local time zone,"
          + " list, map, struct; unions are in a file of their own), nulls in every column but id";

  private static final String TRINO_TYPES_HOLD =
      "every type Trino writes (booleans, integers of every width with extremes, real with NaN"
          + " and -0, double, dictionary and direct varchar, varchar(8), char(5), varbinary,"
          + " decimal(10,2) and decimal(38,6), dates, timestamps of 3, 6 and 9 digits on both"
          + " sides of 1970, timestamp with time zone, array, map, row), nulls in every column"
          + " but id";

  /** Every file of the corpus, fixtures first, in a stable order (no paths). */
  public static List<OrcWriterFile> files() {
    List<OrcWriterFile> files = new ArrayList<>(fixtures());
    files.addAll(legacy());
    return List.copyOf(files);
  }

  /** The committed fixtures (no paths). */
  public static List<OrcWriterFile> fixtures() {
    List<OrcWriterFile> files = new ArrayList<>();
    for (CompressionKind codec :
        List.of(
            CompressionKind.NONE,
            CompressionKind.ZLIB,
            CompressionKind.SNAPPY,
            CompressionKind.LZ4,
            CompressionKind.ZSTD)) {
      files.add(
          new OrcWriterFile(
              "cpp/cpp-types-" + lower(codec) + ".orc",
              CPP,
              codec,
              2000,
              8,
              200,
              CPP_TYPES_HOLD,
              CPP_TYPES,
              null));
    }
    files.add(
        new OrcWriterFile(
            "cpp/cpp-stripes-zstd.orc",
            CPP,
            CompressionKind.ZSTD,
            3000,
            3,
            250,
            "an id, long compressible strings and ints in small compressed stripes",
            EnumSet.of(
                Trait.CONTENT_LENGTH_WITHOUT_HEADER,
                Trait.STRIPES,
                Trait.STRIDES,
                Trait.DIRECT_STRINGS),
            null));
    files.add(
        new OrcWriterFile(
            "cpp/cpp-lz4-original-chunks.orc",
            CPP,
            CompressionKind.LZ4,
            300,
            1,
            100,
            "the strings file's columns in LZ4 as the writer's default strategy (speed) writes"
                + " it: every chunk stored uncompressed",
            EnumSet.of(
                Trait.CONTENT_LENGTH_WITHOUT_HEADER,
                Trait.SINGLE_STRIPE,
                Trait.STRIDES,
                Trait.DIRECT_STRINGS,
                Trait.ORIGINAL_CHUNKS),
            null));
    files.add(
        new OrcWriterFile(
            "cpp/cpp-timestamps-before-1970.orc",
            CPP,
            CompressionKind.ZLIB,
            400,
            1,
            100,
            "timestamps (nanoseconds, microseconds with UTC, milliseconds) on both sides of 1970"
                + " with fractions of a second, those before 1970 with negative nanoseconds",
            EnumSet.of(
                Trait.CONTENT_LENGTH_WITHOUT_HEADER,
                Trait.SINGLE_STRIPE,
                Trait.STRIDES,
                Trait.NEGATIVE_NANOS),
            null));
    files.add(
        new OrcWriterFile(
            "cpp/cpp-union.orc",
            CPP,
            CompressionKind.ZLIB,
            600,
            1,
            100,
            "a union of int, string and double, nulls in its alternatives (an Arrow union has no"
                + " validity of its own)",
            EnumSet.of(
                Trait.CONTENT_LENGTH_WITHOUT_HEADER,
                Trait.SINGLE_STRIPE,
                Trait.STRIDES,
                Trait.UNION),
            null));
    files.add(
        new OrcWriterFile(
            "cpp/cpp-single-stripe.orc",
            CPP,
            CompressionKind.ZLIB,
            300,
            1,
            100,
            "the first 300 rows of the types files in one stripe at offset 3",
            EnumSet.of(
                Trait.CONTENT_LENGTH_WITHOUT_HEADER,
                Trait.SINGLE_STRIPE,
                Trait.STRIDES,
                Trait.DICTIONARY_STRINGS,
                Trait.DIRECT_STRINGS,
                Trait.WIDE_DECIMALS,
                Trait.NESTED),
            null));
    files.add(
        new OrcWriterFile(
            "cpp/cpp-version-0.11.orc",
            CPP,
            CompressionKind.ZLIB,
            1500,
            6,
            100,
            "the first 1500 rows of the types files in file version 0.11 (run-length encoding"
                + " version 1)",
            EnumSet.of(
                Trait.CONTENT_LENGTH_WITHOUT_HEADER,
                Trait.STRIPES,
                Trait.STRIDES,
                Trait.VERSION_0_11,
                Trait.DICTIONARY_STRINGS,
                Trait.DIRECT_STRINGS,
                Trait.WIDE_DECIMALS,
                Trait.NESTED),
            null));
    for (CompressionKind codec :
        List.of(
            CompressionKind.NONE,
            CompressionKind.ZLIB,
            CompressionKind.SNAPPY,
            CompressionKind.LZ4,
            CompressionKind.ZSTD)) {
      files.add(
          new OrcWriterFile(
              "trino/trino-types-" + lower(codec) + ".orc",
              TRINO,
              codec,
              1000,
              3,
              100,
              TRINO_TYPES_HOLD,
              TRINO_TYPES,
              null));
    }
    return List.copyOf(files);
  }

  /** The files {@link #writeLegacy} writes (no paths). */
  public static List<OrcWriterFile> legacy() {
    Set<Trait> plain = EnumSet.of(Trait.STRIPES, Trait.DICTIONARY_STRINGS, Trait.NESTED);
    return List.of(
        new OrcWriterFile(
            "legacy/orc-version-0.11-rle-v1.orc",
            ORC_JAVA,
            CompressionKind.ZLIB,
            LEGACY_ROWS,
            2,
            1000,
            "orc-core's file version 0.11: run-length encoding version 1, DIRECT and DICTIONARY"
                + " encodings",
            union(plain, Trait.STRIDES, Trait.VERSION_0_11, Trait.DIRECT_STRINGS),
            null),
        new OrcWriterFile(
            "legacy/orc-no-row-index.orc",
            ORC_JAVA,
            CompressionKind.ZLIB,
            LEGACY_ROWS,
            2,
            0,
            "no row index (row index stride 0)",
            union(plain, Trait.NO_ROW_INDEX, Trait.DIRECT_STRINGS),
            null),
        new OrcWriterFile(
            "legacy/orc-stride-without-row-index.orc",
            ORC_JAVA,
            CompressionKind.SNAPPY,
            LEGACY_ROWS,
            2,
            1000,
            "a row index stride of 1000 but no row index, as orc-core before 1.8.3 (ORC-1362)"
                + " and Hive wrote files with the index turned off",
            union(plain, Trait.STRIDE_WITHOUT_ROW_INDEX, Trait.DIRECT_STRINGS),
            null),
        new OrcWriterFile(
            "legacy/orc-no-compression-block-size.orc",
            ORC_JAVA,
            CompressionKind.ZLIB,
            LEGACY_ROWS,
            2,
            1000,
            "a postscript without compression block size (stripes written in 256 KiB blocks,"
                + " the default a reader then applies)",
            union(plain, Trait.STRIDES, Trait.NO_COMPRESSION_BLOCK_SIZE, Trait.DIRECT_STRINGS),
            null),
        new OrcWriterFile(
            "legacy/orc-first-format.orc",
            ORC_JAVA,
            CompressionKind.ZLIB,
            LEGACY_ROWS,
            2,
            1000,
            "the first ORC format (Hive 0.11): file version 0.11, no magic in the postscript, no"
                + " writer version and no stripe statistics",
            union(
                plain,
                Trait.STRIDES,
                Trait.VERSION_0_11,
                Trait.NO_POSTSCRIPT_MAGIC,
                Trait.NO_STRIPE_STATISTICS,
                Trait.DIRECT_STRINGS),
            null));
  }

  /** Copies the fixtures and writes the legacy files into {@code dir}, with their paths. */
  public static List<OrcWriterFile> write(Path dir) throws IOException {
    List<OrcWriterFile> files = new ArrayList<>(copyFixtures(dir));
    files.addAll(writeLegacy(dir));
    return List.copyOf(files);
  }

  /** Copies the fixtures from the class path into {@code dir} (under their names' folders). */
  public static List<OrcWriterFile> copyFixtures(Path dir) throws IOException {
    List<OrcWriterFile> files = new ArrayList<>();
    for (OrcWriterFile file : fixtures()) {
      Path target = dir.resolve(file.name());
      Files.createDirectories(target.getParent());
      try (InputStream in = OrcWriterCorpus.class.getResourceAsStream(RESOURCES + file.name())) {
        if (in == null) {
          throw new IOException("fixture " + RESOURCES + file.name() + " is not on the class path");
        }
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      }
      files.add(file.at(target));
    }
    return List.copyOf(files);
  }

  /** Writes the legacy files into {@code dir}, with their paths. */
  public static List<OrcWriterFile> writeLegacy(Path dir) throws IOException {
    List<OrcWriterFile> files = new ArrayList<>();
    for (OrcWriterFile file : legacy()) {
      Path target = dir.resolve(file.name());
      Files.createDirectories(target.getParent());
      Path plain = target.resolveSibling("written-" + target.getFileName());
      switch (file.name()) {
        case "legacy/orc-version-0.11-rle-v1.orc" ->
            writeOrcCore(target, file.codec(), OrcFile.Version.V_0_11, 1000, 4096);
        case "legacy/orc-no-row-index.orc" ->
            writeOrcCore(target, file.codec(), OrcFile.Version.CURRENT, 0, 4096);
        case "legacy/orc-stride-without-row-index.orc" -> {
          // orc-core before ORC-1362 kept the stride in the footer when the index was off
          writeOrcCore(plain, file.codec(), OrcFile.Version.CURRENT, 0, 4096);
          edit(plain, target, null, footer -> footer.setRowIndexStride(1000), null, true);
        }
        case "legacy/orc-no-compression-block-size.orc" -> {
          // the default block size, so that a reader's default fits the stripes' chunks
          writeOrcCore(plain, file.codec(), OrcFile.Version.CURRENT, 1000, 256 << 10);
          edit(plain, target, null, null, ps -> ps.clearCompressionBlockSize(), true);
        }
        case "legacy/orc-first-format.orc" -> {
          writeOrcCore(plain, file.codec(), OrcFile.Version.V_0_11, 1000, 256 << 10);
          edit(plain, target, null, null, ps -> ps.clearMagic().clearWriterVersion(), false);
        }
        default -> throw new IllegalStateException("no writer for " + file.name());
      }
      Files.deleteIfExists(plain);
      files.add(file.at(target));
    }
    return List.copyOf(files);
  }

  private static void edit(
      Path from,
      Path to,
      OrcSurgery.StripeFooterEdit stripes,
      java.util.function.Consumer<org.apache.orc.OrcProto.Footer.Builder> footer,
      java.util.function.Consumer<org.apache.orc.OrcProto.PostScript.Builder> postScript,
      boolean stripeStatistics)
      throws IOException {
    OrcSurgery surgery = new OrcSurgery(Files.readAllBytes(from));
    Files.write(to, surgery.rewrite(stripes, footer, postScript, stripeStatistics));
  }

  /** The legacy schema: a few of every kind of column, nulls in all but id. */
  public static final TypeDescription LEGACY_SCHEMA =
      TypeDescription.fromString(
          "struct<id:bigint,i:int,d:double,s:string,cat:string,dec:decimal(10,2),ts:timestamp,"
              + "li:array<int>,m:map<string,int>,st:struct<x:int,y:string>>");

  /** Writes {@link #LEGACY_ROWS} rows of {@link #LEGACY_SCHEMA} in stripes of 1500 rows. */
  private static void writeOrcCore(
      Path file, CompressionKind codec, OrcFile.Version version, int stride, int blockSize)
      throws IOException {
    Configuration conf = new Configuration();
    OrcConf.STRIPE_ROW_COUNT.setLong(conf, 1500);
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(conf)
            .setSchema(LEGACY_SCHEMA)
            .compress(codec)
            .version(version)
            .bufferSize(blockSize)
            .useUTCTimestamp(true)
            .overwrite(true);
    if (stride == 0) {
      options.buildIndex(false);
    } else {
      options.rowIndexStride(stride);
    }
    try (Writer writer =
        OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toUri()), options)) {
      VectorizedRowBatch batch = LEGACY_SCHEMA.createRowBatch(500);
      for (int row = 0; row < LEGACY_ROWS; ) {
        batch.reset();
        int count = Math.min(batch.getMaxSize(), LEGACY_ROWS - row);
        for (int r = 0; r < count; r++) {
          legacyRow(batch, r, row + r);
        }
        batch.size = count;
        writer.addRowBatch(batch);
        row += count;
      }
    }
  }

  private static final String[] CATEGORIES = {"north", "south", "east", "west", "中心"};

  private static void legacyRow(VectorizedRowBatch batch, int slot, int row) {
    ((LongColumnVector) batch.cols[0]).vector[slot] = row;
    for (int c = 1; c < batch.cols.length; c++) {
      ColumnVector v = batch.cols[c];
      if ((row + c) % (5 + c) == 0) {
        v.noNulls = false;
        v.isNull[slot] = true;
        continue;
      }
      v.isNull[slot] = false;
      switch (c) {
        case 1 -> ((LongColumnVector) v).vector[slot] = row * 65_599L - 7;
        case 2 -> ((DoubleColumnVector) v).vector[slot] = (row - 1500) / 7.0;
        case 3 ->
            ((BytesColumnVector) v)
                .setVal(slot, ("value " + row + " " + "z".repeat(row % 11)).getBytes(UTF_8));
        case 4 ->
            ((BytesColumnVector) v)
                .setVal(slot, CATEGORIES[row % CATEGORIES.length].getBytes(UTF_8));
        case 5 ->
            ((DecimalColumnVector) v)
                .set(
                    slot, HiveDecimal.create(java.math.BigInteger.valueOf(row * 125L - 99_999), 2));
        case 6 -> {
          // both sides of 1970, with fractions of a second
          TimestampColumnVector t = (TimestampColumnVector) v;
          java.sql.Timestamp ts = new java.sql.Timestamp((row - 1500) * 86_400_123L);
          ts.setNanos(ts.getNanos() + row % 1000);
          t.set(slot, ts);
        }
        case 7 -> {
          ListColumnVector list = (ListColumnVector) v;
          int n = row % 4;
          int offset = children(list, slot, n);
          LongColumnVector child = (LongColumnVector) list.child;
          for (int k = 0; k < n; k++) {
            child.isNull[offset + k] = false;
            child.vector[offset + k] = row * 10L + k;
          }
        }
        case 8 -> {
          MapColumnVector map = (MapColumnVector) v;
          int n = row % 3;
          int offset = children(map, slot, n);
          for (int k = 0; k < n; k++) {
            ((BytesColumnVector) map.keys).setVal(offset + k, ("k" + k).getBytes(UTF_8));
            ((LongColumnVector) map.values).vector[offset + k] = row + k;
          }
        }
        case 9 -> {
          StructColumnVector st = (StructColumnVector) v;
          ((LongColumnVector) st.fields[0]).vector[slot] = row * 3L;
          ((BytesColumnVector) st.fields[1])
              .setVal(slot, CATEGORIES[row % CATEGORIES.length].getBytes(UTF_8));
        }
        default -> throw new IllegalStateException("column " + c);
      }
    }
  }

  /** Appends {@code n} children to the list or map in {@code slot}; the first child's index. */
  private static int children(
      org.apache.hadoop.hive.ql.exec.vector.MultiValuedColumnVector v, int slot, int n) {
    int offset = v.childCount;
    v.offsets[slot] = offset;
    v.lengths[slot] = n;
    v.childCount = offset + n;
    ColumnVector[] children =
        v instanceof MapColumnVector m
            ? new ColumnVector[] {m.keys, m.values}
            : new ColumnVector[] {((ListColumnVector) v).child};
    for (ColumnVector child : children) {
      child.ensureSize(offset + n, true);
    }
    return offset;
  }

  private static final java.nio.charset.Charset UTF_8 = StandardCharsets.UTF_8;

  private static String lower(CompressionKind codec) {
    return codec.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static Set<Trait> union(Set<Trait> base, Trait... more) {
    Set<Trait> all = EnumSet.copyOf(base);
    all.addAll(List.of(more));
    return all;
  }

  /** The resource folder of the fixtures, for tests that list it. */
  public static String resourceFolder() {
    return RESOURCES;
  }

  /** Reads a fixture's bytes from the class path. */
  public static byte[] fixtureBytes(String name) {
    try (InputStream in = OrcWriterCorpus.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private OrcWriterCorpus() {}
}
