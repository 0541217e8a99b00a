package dev.prefetch.orc.internal.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.orc.OrcTestFiles;
import dev.prefetch.orc.Rows;
import dev.prefetch.orc.internal.OrcTypes;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.stripe.StripeEntry;
import dev.prefetch.orc.internal.stripe.StripeIo;
import dev.prefetch.orc.internal.stripe.StripeReads;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each column reader against orc-core's reader of the same file, column by column and stripe by
 * stripe: every value and null in batches of several sizes, from the start of every row group (a
 * seek) and from inside it (a seek and a skip), and across skips between reads. Files of every type
 * with nulls in every column, in RLE v1 and v2, direct and dictionary strings, compressed or not,
 * and Decimal64.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ColumnReadersTest {

  private static final int ROWS = 5_500;
  private static final int STRIDE = 1_000;

  @TempDir static Path dir;

  static Stream<Arguments> files() {
    return Stream.of(
        Arguments.of(OrcFile.Version.V_0_11, CompressionKind.NONE, true),
        Arguments.of(OrcFile.Version.V_0_11, CompressionKind.ZLIB, false),
        Arguments.of(OrcFile.Version.V_0_12, CompressionKind.NONE, false),
        Arguments.of(OrcFile.Version.V_0_12, CompressionKind.SNAPPY, true),
        Arguments.of(OrcFile.Version.UNSTABLE_PRE_2_0, CompressionKind.ZSTD, true));
  }

  /** One file and orc-core's rows of it. */
  private record Written(Path file, List<Rows.Row> rows, OrcFile.Version version) {}

  private static Written write(OrcFile.Version version, CompressionKind codec, boolean dictionary)
      throws IOException {
    Path file =
        dir.resolve(version.getName() + "-" + codec + (dictionary ? "-dict" : "-direct") + ".orc");
    Configuration conf = new Configuration();
    OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD.setDouble(conf, dictionary ? 1.0 : 0.0);
    OrcTestFiles.write(
        file,
        OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS)
            .codec(codec)
            .stride(STRIDE)
            .stripeRows(2_500),
        conf,
        options -> options.version(version));
    return new Written(
        file, Rows.reference(file, List.of(), null, new Configuration(), null), version);
  }

  @ParameterizedTest(name = "{0} {1} dictionary={2}")
  @MethodSource("files")
  void everyColumnReadsEveryValueInBatchesOfAnySize(
      OrcFile.Version version, CompressionKind codec, boolean dictionary) throws IOException {
    Written written = write(version, codec, dictionary);
    try (Stripes stripes = new Stripes(written)) {
      for (int s = 0; s < stripes.count(); s++) {
        for (int c = 0; c < stripes.columns(); c++) {
          for (int batch : new int[] {1, 333, 4096}) {
            try (ProjectedColumnReader reader = stripes.reader(s, c, false)) {
              long rows = stripes.rows(s);
              for (long at = 0; at < rows; at += batch) {
                int n = (int) Math.min(batch, rows - at);
                stripes.check(s, c, at, reader.read(n), "batch " + batch);
              }
            }
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} {1} dictionary={2}")
  @MethodSource("files")
  void everyColumnSeeksToEveryRowGroupAndSkipsInsideIt(
      OrcFile.Version version, CompressionKind codec, boolean dictionary) throws IOException {
    Written written = write(version, codec, dictionary);
    try (Stripes stripes = new Stripes(written)) {
      for (int s = 0; s < stripes.count(); s++) {
        int groups = (int) ((stripes.rows(s) + STRIDE - 1) / STRIDE);
        for (int c = 0; c < stripes.columns(); c++) {
          try (ProjectedColumnReader reader = stripes.reader(s, c, false)) {
            // backwards, so that every seek moves the streams somewhere new
            for (int g = groups - 1; g >= 0; g--) {
              for (int skip : new int[] {0, 1, 417}) {
                long at = (long) g * STRIDE + skip;
                if (at >= stripes.rows(s)) {
                  continue;
                }
                reader.seek(stripes.indexes(s), g);
                reader.skip(skip);
                int n = (int) Math.min(300, stripes.rows(s) - at);
                stripes.check(s, c, at, reader.read(n), "group " + g + " + " + skip);
              }
            }
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} {1} dictionary={2}")
  @MethodSource("files")
  void skipsBetweenReadsLandOnTheRightRows(
      OrcFile.Version version, CompressionKind codec, boolean dictionary) throws IOException {
    Written written = write(version, codec, dictionary);
    try (Stripes stripes = new Stripes(written)) {
      for (int c = 0; c < stripes.columns(); c++) {
        try (ProjectedColumnReader reader = stripes.reader(0, c, false)) {
          long at = 0;
          int[] skips = {0, 7, 1, 993, 64, 0, 1_200};
          for (int skip : skips) {
            reader.skip(skip);
            at += skip;
            int n = 11;
            stripes.check(0, c, at, reader.read(n), "after a skip of " + skip);
            at += n;
          }
        }
      }
    }
  }

  @Test
  void dictionaryEncodedStringsComeAsDictionaryVectorsOverOneDictionaryPerStripe()
      throws IOException {
    Written written = write(OrcFile.Version.V_0_12, CompressionKind.ZLIB, true);
    try (Stripes stripes = new Stripes(written)) {
      int strings = stripes.columnIndex("s");
      for (int s = 0; s < stripes.count(); s++) {
        if (stripes.rows(s) < 1600) {
          continue;
        }
        List<ColumnVector> batches = new ArrayList<>();
        try (ProjectedColumnReader first = stripes.reader(s, strings, true);
            ProjectedColumnReader second = stripes.reader(s, strings, true)) {
          batches.add(first.read(800));
          batches.add(first.read(800));
          second.skip(800);
          batches.add(second.read(800));
        }
        assertThat(batches).allSatisfy(v -> assertThat(v).isInstanceOf(DictionaryVector.class));
        DictionaryVector one = (DictionaryVector) batches.get(0);
        // the stripe's readers share one dictionary instance, read once
        assertThat(((DictionaryVector) batches.get(1)).dictionary()).isSameAs(one.dictionary());
        assertThat(((DictionaryVector) batches.get(2)).dictionary()).isSameAs(one.dictionary());
        stripes.check(s, strings, 0, batches.get(0), "dictionary vectors");
        stripes.check(s, strings, 800, batches.get(1), "dictionary vectors");
        stripes.check(s, strings, 800, batches.get(2), "dictionary vectors of another reader");
      }
    }
  }

  @Test
  void aFieldInsideStructsIsNullWhereAnyStructOnItsPathIs() throws IOException {
    Written written = write(OrcFile.Version.V_0_12, CompressionKind.ZLIB, false);
    List<Rows.Row> expected =
        Rows.reference(written.file(), List.of("st.z.q"), null, new Configuration(), null);
    try (Stripes stripes = new Stripes(written)) {
      TypeDescription st = stripes.schema.getChildren().get(stripes.columnIndex("st"));
      TypeDescription z = st.getChildren().get(2);
      TypeDescription q = z.getChildren().get(0);
      long first = 0;
      for (int s = 0; s < stripes.count(); s++) {
        if (stripes.rows(s) <= STRIDE + 5) {
          first += stripes.rows(s);
          continue;
        }
        try (ProjectedColumnReader reader =
            ColumnReaders.create(
                new int[] {st.getId(), z.getId()},
                q,
                DataType.int64(),
                false,
                stripes.entry(s),
                stripes.io,
                stripes.settings,
                VectorArrayPool.none())) {
          reader.seek(stripes.indexes(s), 1);
          reader.skip(5);
          ColumnVector v = reader.read((int) Math.min(1500, stripes.rows(s) - STRIDE - 5));
          for (int i = 0; i < v.size(); i++) {
            assertThat(Rows.ours(v, i))
                .as("row %d", first + STRIDE + 5 + i)
                .isEqualTo(expected.get((int) (first + STRIDE + 5 + i)).values().get(0));
          }
        }
        first += stripes.rows(s);
      }
    }
  }

  /** The file's stripes, opened for column readers as a range reader opens them. */
  private static final class Stripes implements AutoCloseable {
    private final Written written;
    private final TypeDescription schema;
    private final List<StripeInformation> info;
    private final long[] firstRows;
    private final StripeReads reads;
    private final FSDataInputStream in;
    private final DecompressionContext decompression;
    private final StripeIo io;
    private final ReadSettings settings;

    Stripes(Written written) throws IOException {
      this.written = written;
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(written.file().toUri());
      Configuration conf = new Configuration();
      CompressionKind kind;
      int blockSize;
      try (Reader reader = OrcFile.createReader(path, OrcFile.readerOptions(conf))) {
        schema = reader.getSchema();
        info = reader.getStripes();
        kind = reader.getCompressionKind();
        blockSize = reader.getCompressionSize();
      }
      firstRows = new long[info.size()];
      for (int s = 1; s < info.size(); s++) {
        firstRows[s] = firstRows[s - 1] + info.get(s - 1).getNumberOfRows();
      }
      boolean[] include = new boolean[schema.getMaximumId() + 1];
      Arrays.fill(include, true);
      int[] ranges = new int[info.size()];
      Arrays.fill(ranges, 1);
      reads =
          new StripeReads(
              new StripeReads.Settings(
                  DataFile.of(written.file()),
                  info,
                  schema,
                  include,
                  kind,
                  blockSize,
                  STRIDE,
                  written.version() == OrcFile.Version.UNSTABLE_PRE_2_0,
                  false,
                  null,
                  ranges,
                  new boolean[info.size()][]));
      in = FileSystem.getLocal(conf).open(path);
      decompression = new DecompressionContext(kind, blockSize, MemoryLedger.NONE, 1 << 20);
      io = new StripeIo(in, decompression, MemoryLedger.NONE);
      settings =
          new ReadSettings(
              written.version() == OrcFile.Version.UNSTABLE_PRE_2_0,
              false,
              TimeZone.getDefault(),
              1L << 30);
    }

    int count() {
      return info.size();
    }

    int columns() {
      return schema.getChildren().size();
    }

    int columnIndex(String name) {
      return schema.getFieldNames().indexOf(name);
    }

    long rows(int stripe) {
      return info.get(stripe).getNumberOfRows();
    }

    StripeEntry entry(int stripe) {
      return reads.stripe(stripe);
    }

    dev.prefetch.orc.internal.stripe.RowIndexes indexes(int stripe) throws IOException {
      return entry(stripe).rowIndexes(io);
    }

    ProjectedColumnReader reader(int stripe, int column, boolean dictionaryVectors)
        throws IOException {
      TypeDescription type = schema.getChildren().get(column);
      return ColumnReaders.create(
          new int[0],
          type,
          OrcTypes.toDataType(type),
          dictionaryVectors,
          entry(stripe),
          io,
          settings,
          VectorArrayPool.none());
    }

    /** Checks {@code vector} against orc-core's values of the stripe's rows from {@code at}. */
    void check(int stripe, int column, long at, ColumnVector vector, String how) {
      String name = schema.getFieldNames().get(column);
      for (int i = 0; i < vector.size(); i++) {
        long row = firstRows[stripe] + at + i;
        assertThat(Rows.ours(vector, i))
            .as("%s, stripe %d, column %s, row %d (%s)", written.file(), stripe, name, row, how)
            .isEqualTo(written.rows().get((int) row).values().get(column));
      }
    }

    @Override
    public void close() throws IOException {
      reads.clear();
      decompression.close();
      in.close();
    }
  }
}
