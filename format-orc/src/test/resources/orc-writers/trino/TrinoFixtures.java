import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MILLIS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_NANOS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

import io.airlift.slice.Slices;
import io.airlift.units.DataSize;
import io.trino.filesystem.local.LocalOutputFile;
import io.trino.orc.OrcWriteValidation.OrcWriteValidationMode;
import io.trino.orc.OrcWriter;
import io.trino.orc.OrcWriterOptions;
import io.trino.orc.OrcWriterStats;
import io.trino.orc.OutputStreamOrcDataSink;
import io.trino.orc.metadata.CompressionKind;
import io.trino.orc.metadata.OrcType;
import io.trino.spi.Page;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.Chars;
import io.trino.spi.type.DateTimeEncoding;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimeZoneKey;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import io.trino.spi.type.VarcharType;
import java.io.File;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the fixtures of Trino's ORC writer (io.trino:trino-orc 483) for format-orc's tests: run
 * once by make_fixtures.sh on Java 25, never by the build. Every value is a function of the row
 * number, so a second run writes the same values. What each file holds is listed in ../README.md
 * and in OrcWriterCorpus (format-orc's test jar).
 */
public final class TrinoFixtures {

  static final int ROWS = 1000;
  static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "épsilon", "ζeta", "中文", ""};

  static final CharType CHAR5 = CharType.createCharType(5);
  static final VarcharType VARCHAR8 = VarcharType.createVarcharType(8);
  static final DecimalType DEC10 = DecimalType.createDecimalType(10, 2);
  static final DecimalType DEC38 = DecimalType.createDecimalType(38, 6);
  static final ArrayType INTS = new ArrayType(INTEGER);
  static final MapType MAP = new MapType(VARCHAR, INTEGER, new TypeOperators());
  static final RowType ROW =
      RowType.rowType(RowType.field("x", INTEGER), RowType.field("y", VARCHAR));

  static final List<String> NAMES =
      List.of(
          "id", "b", "i8", "i16", "i32", "i64", "f32", "f64", "s_dict", "s_direct", "vc", "ch",
          "bin", "dec", "dec38", "dt", "ts3", "ts6", "ts9", "tstz", "li", "mp", "st");
  static final List<Type> TYPES =
      List.of(
          BIGINT, BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, VARCHAR, VARCHAR,
          VARCHAR8, CHAR5, VARBINARY, DEC10, DEC38, DATE, TIMESTAMP_MILLIS, TIMESTAMP_MICROS,
          TIMESTAMP_NANOS, TIMESTAMP_TZ_MILLIS, INTS, MAP, ROW);

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : ".");
    for (CompressionKind codec : CompressionKind.values()) {
      write(out.resolve("trino-types-" + codec.name().toLowerCase() + ".orc"), codec, ROWS);
    }
  }

  static void write(Path file, CompressionKind codec, int rows) throws Exception {
    Files.deleteIfExists(file);
    OrcWriterOptions options =
        new OrcWriterOptions()
            .withStripeMinSize(DataSize.ofBytes(1))
            .withStripeMaxSize(DataSize.of(1, DataSize.Unit.MEGABYTE))
            .withStripeMaxRowCount(400)
            .withRowGroupMaxRowCount(100);
    try (OrcWriter writer =
        new OrcWriter(
            OutputStreamOrcDataSink.create(new LocalOutputFile(new File(file.toString()))),
            NAMES,
            TYPES,
            OrcType.createRootOrcType(NAMES, TYPES),
            codec,
            options,
            Map.of(),
            true,
            OrcWriteValidationMode.BOTH,
            new OrcWriterStats())) {
      // pages of 100 rows, as an engine hands them over
      for (int start = 0; start < rows; start += 100) {
        writer.write(page(start, Math.min(100, rows - start), rows));
      }
    }
    System.out.println(file + ": " + Files.size(file) + " bytes");
  }

  static Page page(int start, int count, int rows) {
    List<BlockBuilder> builders = new ArrayList<>();
    for (Type type : TYPES) {
      builders.add(type.createBlockBuilder(null, count));
    }
    for (int i = start; i < start + count; i++) {
      for (int c = 0; c < TYPES.size(); c++) {
        BlockBuilder b = builders.get(c);
        // a null in every column but the id, at a different row for each
        if (c > 0 && (i + c) % (7 + c % 5) == 0) {
          b.appendNull();
        } else {
          value(c, i, rows, b);
        }
      }
    }
    Block[] blocks = new Block[TYPES.size()];
    for (int c = 0; c < blocks.length; c++) {
      blocks[c] = builders.get(c).build();
    }
    return new Page(count, blocks);
  }

  static void value(int c, int i, int rows, BlockBuilder b) {
    switch (NAMES.get(c)) {
      case "id" -> BIGINT.writeLong(b, i);
      case "b" -> BOOLEAN.writeBoolean(b, i % 3 == 0);
      case "i8" -> TINYINT.writeLong(b, (i * 37) % 256 - 128);
      case "i16" -> SMALLINT.writeLong(b, (i * 311) % 65536 - 32768);
      case "i32" -> INTEGER.writeLong(b, (int) ((i * 65_599L) % (1L << 32) - (1L << 31)));
      case "i64" ->
          BIGINT.writeLong(
              b, i % 97 == 5 ? (i % 2 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : i * 1_000_003L);
      case "f32" ->
          REAL.writeFloat(b, i % 89 == 7 ? (i % 2 == 0 ? Float.NaN : -0.0f) : i * 0.75f - 300);
      case "f64" -> DOUBLE.writeDouble(b, (i - 1000) / 7.0);
      case "s_dict" -> VARCHAR.writeString(b, WORDS[i % WORDS.length]);
      case "s_direct" -> VARCHAR.writeString(b, String.format("row %06d %s", i, "x".repeat(i % 13)));
      case "vc" -> VARCHAR8.writeString(b, String.format("v%07d", i * 7).substring(0, 1 + i % 8));
      case "ch" ->
          CHAR5.writeSlice(
              b, Chars.truncateToLengthAndTrimSpaces(Slices.utf8Slice("c" + (i % 300)), CHAR5));
      case "bin" ->
          VARBINARY.writeSlice(
              b, Slices.wrappedBuffer(new byte[] {(byte) i, 0, (byte) (255 - i)}, 0, i % 4));
      case "dec" -> DEC10.writeLong(b, i * 125L - 99_999);
      case "dec38" ->
          DEC38.writeObject(
              b,
              Int128.valueOf(
                  i % 101 == 9
                      ? BigInteger.TEN.pow(38).subtract(BigInteger.ONE).negate()
                      : BigInteger.valueOf(i - 1000).multiply(BigInteger.TEN.pow(25))));
      case "dt" -> DATE.writeLong(b, i * 17L - 20_000);
      // both sides of 1970, with fractions of a second
      case "ts3" -> TIMESTAMP_MILLIS.writeLong(b, ((i - 500) * 86_400_123L) * 1000);
      case "ts6" -> TIMESTAMP_MICROS.writeLong(b, (i - 700) * 3_600_000_001L);
      case "ts9" ->
          TIMESTAMP_NANOS.writeObject(
              b, new LongTimestamp((i - 900) * 123_456_789_123L, (i % 1000) * 1000));
      case "tstz" ->
          TIMESTAMP_TZ_MILLIS.writeLong(
              b,
              DateTimeEncoding.packDateTimeWithZone(
                  (i - 400) * 86_400_001L + i % 1000, TimeZoneKey.UTC_KEY));
      case "li" ->
          ((ArrayBlockBuilder) b)
              .buildEntry(
                  e -> {
                    for (int k = 0; k < i % 5; k++) {
                      if ((i + k) % 7 == 0) {
                        e.appendNull();
                      } else {
                        INTEGER.writeLong(e, i * 10 + k);
                      }
                    }
                  });
      case "mp" ->
          ((MapBlockBuilder) b)
              .buildEntry(
                  (keys, values) -> {
                    for (int k = 0; k < i % 4; k++) {
                      VARCHAR.writeString(keys, "k" + k);
                      if (k == 1) {
                        values.appendNull();
                      } else {
                        INTEGER.writeLong(values, i + k);
                      }
                    }
                  });
      case "st" ->
          ((RowBlockBuilder) b)
              .buildEntry(
                  fields -> {
                    if (i % 9 == 0) {
                      fields.get(0).appendNull();
                    } else {
                      INTEGER.writeLong(fields.get(0), i * 3L);
                    }
                    VARCHAR.writeString(fields.get(1), WORDS[i % WORDS.length]);
                  });
      default -> throw new IllegalStateException(NAMES.get(c));
    }
  }

  private TrinoFixtures() {}
}
