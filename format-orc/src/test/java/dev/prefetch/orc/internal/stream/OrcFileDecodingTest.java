package dev.prefetch.orc.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real ORC files written by orc-core (every primitive type, nulls, several stripes, RLE v1 and v2
 * files, Decimal64, each codec, small compression blocks), their streams decoded column by column
 * with the stream layer as a column reader will, and compared value by value with what orc-core's
 * own reader returns for the same rows: whole stripes, and from every row index entry of every
 * stripe (its positions as the file states them).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OrcFileDecodingTest {

  private static final TypeDescription SCHEMA =
      TypeDescription.fromString(
          "struct<b:boolean,i8:tinyint,i16:smallint,i32:int,i64:bigint,f32:float,f64:double,"
              + "dict:string,direct:string,bin:binary,d10:decimal(10,2),d30:decimal(30,5),"
              + "dt:date,ts:timestamp,tsz:timestamp with local time zone,allnull:bigint>");

  /** 2015-01-01 00:00:00 UTC, the base of timestamp seconds. */
  private static final long BASE_SECONDS = 1_420_070_400L;

  private static final int ROWS = 23_456;

  static Stream<Arguments> files() {
    return Stream.of(
        Arguments.of(OrcFile.Version.V_0_12, CompressionKind.ZLIB, 4096),
        Arguments.of(OrcFile.Version.V_0_12, CompressionKind.NONE, 4096),
        Arguments.of(OrcFile.Version.V_0_12, CompressionKind.SNAPPY, 65536),
        Arguments.of(OrcFile.Version.V_0_12, CompressionKind.ZSTD, 4096),
        Arguments.of(OrcFile.Version.V_0_12, CompressionKind.LZ4, 4096),
        Arguments.of(OrcFile.Version.V_0_11, CompressionKind.ZLIB, 4096),
        Arguments.of(OrcFile.Version.V_0_11, CompressionKind.NONE, 4096),
        Arguments.of(OrcFile.Version.UNSTABLE_PRE_2_0, CompressionKind.ZSTD, 4096));
  }

  private static Path write(Path dir, OrcFile.Version version, CompressionKind kind, int blockSize)
      throws IOException {
    Path path = dir.resolve(version.getName() + "-" + kind + "-" + blockSize + ".orc");
    Configuration conf = new Configuration();
    OrcConf.STRIPE_ROW_COUNT.setLong(conf, 7_000);
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(conf)
            .setSchema(SCHEMA)
            .version(version)
            .compress(kind)
            .bufferSize(blockSize)
            .enforceBufferSize()
            .rowIndexStride(1000)
            .useUTCTimestamp(true)
            .overwrite(true);
    Random random = new Random(kind.ordinal() * 31L + version.ordinal());
    String[] words = {"alpha", "beta", "gamma", "delta", "", "epsilon", "zeta", "eta"};
    try (Writer writer =
        OrcFile.createWriter(new org.apache.hadoop.fs.Path(path.toString()), options)) {
      VectorizedRowBatch batch = SCHEMA.createRowBatch(777);
      int row = 0;
      while (row < ROWS) {
        batch.reset();
        int count = Math.min(batch.getMaxSize(), ROWS - row);
        for (int i = 0; i < count; i++) {
          // stretches without nulls, and stretches with many
          boolean manyNulls = ((row + i) / 1500) % 3 == 1;
          for (int c = 0; c < batch.cols.length; c++) {
            ColumnVector v = batch.cols[c];
            if (c == batch.cols.length - 1 || (manyNulls && random.nextInt(3) == 0)) {
              v.noNulls = false;
              v.isNull[i] = true;
              continue;
            }
            fill(c, v, i, row + i, random, words);
          }
        }
        batch.size = count;
        writer.addRowBatch(batch);
        row += count;
      }
    }
    return path;
  }

  private static void fill(int c, ColumnVector v, int i, int row, Random random, String[] words) {
    switch (c) {
      case 0 ->
          ((LongColumnVector) v).vector[i] = random.nextInt(5) == 0 ? 1 : row % 3 == 0 ? 1 : 0;
      case 1 -> ((LongColumnVector) v).vector[i] = row % 500 < 250 ? 7 : (byte) random.nextInt();
      case 2 -> ((LongColumnVector) v).vector[i] = (short) (random.nextInt(1 << (1 + row % 16)));
      case 3 -> ((LongColumnVector) v).vector[i] = row % 2000 < 1000 ? row * 3 : random.nextInt();
      case 4 ->
          ((LongColumnVector) v).vector[i] =
              row % 700 < 100 ? Long.MIN_VALUE + row : random.nextLong() >> random.nextInt(64);
      case 5 -> ((DoubleColumnVector) v).vector[i] = (float) (random.nextGaussian() * 1e4);
      case 6 ->
          ((DoubleColumnVector) v).vector[i] =
              row % 4 == 0 ? Double.NaN : random.nextDouble() * row;
      case 7 ->
          ((BytesColumnVector) v)
              .setVal(i, words[random.nextInt(words.length)].getBytes(StandardCharsets.UTF_8));
      case 8 -> {
        byte[] bytes = new byte[random.nextInt(row % 100 == 0 ? 3000 : 40)];
        for (int k = 0; k < bytes.length; k++) {
          bytes[k] = (byte) ('a' + random.nextInt(26));
        }
        ((BytesColumnVector) v).setVal(i, bytes);
      }
      case 9 -> {
        byte[] bytes = new byte[random.nextInt(20)];
        random.nextBytes(bytes);
        ((BytesColumnVector) v).setVal(i, bytes);
      }
      case 10 ->
          ((DecimalColumnVector) v)
              .set(
                  i,
                  HiveDecimal.create(
                      BigDecimal.valueOf(random.nextLong() % 10_000_000_000L, random.nextInt(3))));
      case 11 ->
          ((DecimalColumnVector) v)
              .set(
                  i,
                  HiveDecimal.create(
                      new BigDecimal(new BigInteger(1 + random.nextInt(98), random), 5)));
      case 12 -> ((LongColumnVector) v).vector[i] = random.nextInt(80_000) - 40_000;
      case 13, 14 -> {
        TimestampColumnVector t = (TimestampColumnVector) v;
        long seconds =
            switch (random.nextInt(4)) {
              case 0 -> -1; // between -1 s and 0
              case 1 -> random.nextInt(20) - 10;
              default -> random.nextLong() % 4_000_000_000L;
            };
        int nanos =
            switch (random.nextInt(4)) {
              case 0 -> 0;
              case 1 -> random.nextInt(1000) * 1_000_000;
              case 2 -> random.nextInt(1_000_000) * 1000;
              default -> random.nextInt(1_000_000_000);
            };
        t.time[i] = seconds * 1000 + nanos / 1_000_000;
        t.nanos[i] = nanos;
      }
      default -> throw new AssertionError(c);
    }
  }

  /** orc-core's reading of every column, row by row; null for a null. */
  private static List<List<Object>> orcCoreRows(Path path) throws IOException {
    List<List<Object>> columns = new ArrayList<>();
    for (int c = 0; c < SCHEMA.getChildren().size(); c++) {
      columns.add(new ArrayList<>());
    }
    Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(path.toString()),
            OrcFile.readerOptions(new Configuration()).useUTCTimestamp(true));
    try (RecordReader rows = reader.rows()) {
      VectorizedRowBatch batch = reader.getSchema().createRowBatch(1000);
      while (rows.nextBatch(batch)) {
        for (int c = 0; c < batch.cols.length; c++) {
          ColumnVector v = batch.cols[c];
          for (int r = 0; r < batch.size; r++) {
            int i = v.isRepeating ? 0 : r;
            columns.get(c).add(v.noNulls || !v.isNull[i] ? value(c, v, i) : null);
          }
        }
      }
    }
    return columns;
  }

  private static Object value(int c, ColumnVector v, int i) {
    switch (c) {
      case 0, 1, 2, 3, 4, 12:
        return ((LongColumnVector) v).vector[i];
      case 5:
        return (double) (float) ((DoubleColumnVector) v).vector[i];
      case 6:
        return ((DoubleColumnVector) v).vector[i];
      case 7, 8, 9:
        BytesColumnVector b = (BytesColumnVector) v;
        return Arrays.toString(
            Arrays.copyOfRange(b.vector[i], b.start[i], b.start[i] + b.length[i]));
      case 10, 11:
        return ((DecimalColumnVector) v)
            .vector[i]
            .getHiveDecimal()
            .bigDecimalValue()
            .stripTrailingZeros();
      default:
        TimestampColumnVector t = (TimestampColumnVector) v;
        return t.time[i] + "ms+" + t.nanos[i];
    }
  }

  /** One column of one stripe read through the stream layer, as a column reader will. */
  private static final class ColumnReader {
    final int column;
    final BooleanDecoder present;
    final Object data;
    final IntegerDecoder lengthsOrScales;
    final StringDictionary dictionary;
    final boolean decimal64;

    ColumnReader(FileStreams streams, int stripe, int c) throws IOException {
      this.column = c + 1;
      boolean v2 = streams.rleV2(stripe, column);
      StreamInput presentStream = streams.open(stripe, column, OrcProto.Stream.Kind.PRESENT);
      this.present = presentStream == null ? null : new BooleanDecoder(presentStream);
      StreamInput dataStream = streams.open(stripe, column, OrcProto.Stream.Kind.DATA);
      OrcProto.ColumnEncoding encoding = streams.encoding(stripe, column);
      boolean dictionaryEncoded =
          encoding.getKind() == OrcProto.ColumnEncoding.Kind.DICTIONARY
              || encoding.getKind() == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2;
      StreamInput secondary = streams.open(stripe, column, OrcProto.Stream.Kind.SECONDARY);
      StreamInput length = streams.open(stripe, column, OrcProto.Stream.Kind.LENGTH);
      this.decimal64 = (c == 10) && secondary == null;
      IntegerDecoder lengths = null;
      StringDictionary dict = null;
      Object decoder;
      switch (c) {
        case 0 -> decoder = new BooleanDecoder(dataStream);
        case 1 -> decoder = new ByteRleDecoder(dataStream);
        case 2, 3, 4, 12 -> decoder = IntegerDecoder.create(dataStream, true, v2);
        case 5 -> decoder = new FloatDecoder(dataStream);
        case 6 -> decoder = new DoubleDecoder(dataStream);
        case 7, 8, 9 -> {
          if (dictionaryEncoded) {
            dict =
                StringDictionary.read(
                    streams.open(stripe, column, OrcProto.Stream.Kind.DICTIONARY_DATA),
                    IntegerDecoder.create(length, false, v2),
                    encoding.getDictionarySize());
            decoder = IntegerDecoder.create(dataStream, false, v2);
          } else {
            decoder = new StringDirectDecoder(dataStream, IntegerDecoder.create(length, false, v2));
          }
        }
        case 10, 11 ->
            decoder =
                decimal64
                    ? IntegerDecoder.create(dataStream, true, true)
                    : new DecimalDecoder(dataStream, IntegerDecoder.create(secondary, true, v2));
        case 13, 14 ->
            decoder =
                new TimestampDecoder(
                    IntegerDecoder.create(dataStream, true, v2),
                    IntegerDecoder.create(secondary, false, v2),
                    BASE_SECONDS);
        default -> decoder = IntegerDecoder.create(dataStream, true, v2);
      }
      this.data = decoder;
      this.lengthsOrScales = lengths;
      this.dictionary = dict;
    }

    /** Seeks every stream to a row index entry, in the specification's order. */
    void seek(IndexPositions positions) throws IOException {
      if (present != null) {
        present.seek(positions);
      }
      if (data instanceof BooleanDecoder d) {
        d.seek(positions);
      } else if (data instanceof ByteRleDecoder d) {
        d.seek(positions);
      } else if (data instanceof IntegerDecoder d) {
        d.seek(positions);
      } else if (data instanceof FloatDecoder d) {
        d.seek(positions);
      } else if (data instanceof DoubleDecoder d) {
        d.seek(positions);
      } else if (data instanceof StringDirectDecoder d) {
        d.seek(positions);
      } else if (data instanceof DecimalDecoder d) {
        d.seek(positions);
      } else {
        ((TimestampDecoder) data).seek(positions);
      }
      assertThat(positions.remaining()).as("positions left for column %d", column).isZero();
    }

    /** The next {@code rows} rows, with the expected value representation. */
    List<Object> read(int rows) throws IOException {
      boolean[] nulls = new boolean[rows];
      int m = present == null ? rows : present.decodeNulls(nulls, 0, rows);
      Object[] values = new Object[m];
      if (data instanceof BooleanDecoder d) {
        boolean[] out = new boolean[m];
        d.decode(out, 0, m);
        for (int i = 0; i < m; i++) {
          values[i] = out[i] ? 1L : 0L;
        }
      } else if (data instanceof ByteRleDecoder d) {
        byte[] out = new byte[m];
        d.decode(out, 0, m);
        for (int i = 0; i < m; i++) {
          values[i] = (long) out[i];
        }
      } else if (data instanceof IntegerDecoder d && dictionary != null) {
        int[] ids = new int[m];
        d.decodeIds(ids, 0, m, dictionary.size());
        for (int i = 0; i < m; i++) {
          values[i] =
              Arrays.toString(
                  Arrays.copyOfRange(
                      dictionary.data(),
                      dictionary.offsets()[ids[i]],
                      dictionary.offsets()[ids[i] + 1]));
        }
      } else if (data instanceof IntegerDecoder d) {
        long[] out = new long[m];
        d.decode(out, 0, m);
        for (int i = 0; i < m; i++) {
          values[i] =
              decimal64 ? BigDecimal.valueOf(out[i], 2).stripTrailingZeros() : (Object) out[i];
        }
      } else if (data instanceof FloatDecoder d) {
        float[] out = new float[m];
        d.decode(out, 0, m);
        for (int i = 0; i < m; i++) {
          values[i] = (double) out[i];
        }
      } else if (data instanceof DoubleDecoder d) {
        double[] out = new double[m];
        d.decode(out, 0, m);
        for (int i = 0; i < m; i++) {
          values[i] = out[i];
        }
      } else if (data instanceof StringDirectDecoder d) {
        int[] lengths = new int[m];
        long total = d.decodeLengths(lengths, 0, m);
        byte[] bytes = new byte[(int) total];
        d.readBytes(bytes, 0, bytes.length);
        int at = 0;
        for (int i = 0; i < m; i++) {
          values[i] = Arrays.toString(Arrays.copyOfRange(bytes, at, at + lengths[i]));
          at += lengths[i];
        }
      } else if (data instanceof DecimalDecoder d) {
        long[] high = new long[m];
        long[] low = new long[m];
        int[] scales = new int[m];
        boolean[] unfit = new boolean[m];
        d.decode128(high, low, scales, unfit, 0, m);
        for (int i = 0; i < m; i++) {
          assertThat(unfit[i]).isFalse();
          BigInteger unscaled =
              BigInteger.valueOf(high[i]).shiftLeft(64).or(BigInteger.valueOf(low[i]).and(MASK_64));
          values[i] = new BigDecimal(unscaled, scales[i]).stripTrailingZeros();
        }
      } else {
        long[] millis = new long[m];
        int[] nanos = new int[m];
        ((TimestampDecoder) data).decode(millis, nanos, 0, m);
        for (int i = 0; i < m; i++) {
          values[i] = millis[i] + "ms+" + nanos[i];
        }
      }
      List<Object> out = new ArrayList<>(rows);
      int k = 0;
      for (int r = 0; r < rows; r++) {
        out.add(nulls[r] ? null : values[k++]);
      }
      return out;
    }
  }

  private static final BigInteger MASK_64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  @ParameterizedTest(name = "{0} {1}, blocks of {2}")
  @MethodSource("files")
  void decodesEveryColumnOfEveryStripeAsOrcCoreReadsIt(
      OrcFile.Version version, CompressionKind kind, int blockSize, @TempDir Path dir)
      throws IOException {
    Path path = write(dir, version, kind, blockSize);
    List<List<Object>> expected = orcCoreRows(path);
    Set<OrcProto.ColumnEncoding.Kind> encodings =
        EnumSet.noneOf(OrcProto.ColumnEncoding.Kind.class);
    try (FileStreams streams = new FileStreams(Files.readAllBytes(path))) {
      assertThat(streams.stripes()).isGreaterThan(2);
      int first = 0;
      for (int s = 0; s < streams.stripes(); s++) {
        int rows = (int) streams.stripeRows(s);
        for (int c = 0; c < SCHEMA.getChildren().size(); c++) {
          encodings.add(streams.encoding(s, c + 1).getKind());
          // whole stripe, in batches of odd sizes
          ColumnReader reader = new ColumnReader(streams, s, c);
          List<Object> got = new ArrayList<>();
          while (got.size() < rows) {
            got.addAll(reader.read(Math.min(rows - got.size(), 333 + got.size() % 7)));
          }
          assertThat(got)
              .as("stripe %d column %s", s, SCHEMA.getFieldNames().get(c))
              .isEqualTo(expected.get(c).subList(first, first + rows));
        }
        first += rows;
      }
    }
    assertThat(encodings)
        .contains(
            version == OrcFile.Version.V_0_11
                ? OrcProto.ColumnEncoding.Kind.DICTIONARY
                : OrcProto.ColumnEncoding.Kind.DICTIONARY_V2,
            version == OrcFile.Version.V_0_11
                ? OrcProto.ColumnEncoding.Kind.DIRECT
                : OrcProto.ColumnEncoding.Kind.DIRECT_V2);
  }

  @ParameterizedTest(name = "{0} {1}, blocks of {2}")
  @MethodSource("files")
  void seeksToEveryRowIndexEntryOfEveryStripe(
      OrcFile.Version version, CompressionKind kind, int blockSize, @TempDir Path dir)
      throws IOException {
    Path path = write(dir, version, kind, blockSize);
    List<List<Object>> expected = orcCoreRows(path);
    try (FileStreams streams = new FileStreams(Files.readAllBytes(path))) {
      int stride = streams.rowIndexStride();
      int first = 0;
      for (int s = 0; s < streams.stripes(); s++) {
        int rows = (int) streams.stripeRows(s);
        for (int c = 0; c < SCHEMA.getChildren().size(); c++) {
          OrcProto.RowIndex index = streams.rowIndex(s, c + 1);
          assertThat(index.getEntryCount()).isEqualTo((rows + stride - 1) / stride);
          ColumnReader reader = new ColumnReader(streams, s, c);
          // backwards, so every seek moves away from where the last one read
          for (int e = index.getEntryCount() - 1; e >= 0; e--) {
            reader.seek(IndexPositions.of(index.getEntry(e).getPositionsList()));
            int n = Math.min(stride, rows - e * stride);
            int at = first + e * stride;
            assertThat(reader.read(n))
                .as("stripe %d column %s entry %d", s, SCHEMA.getFieldNames().get(c), e)
                .isEqualTo(expected.get(c).subList(at, at + n));
          }
        }
        first += rows;
      }
    }
  }
}
