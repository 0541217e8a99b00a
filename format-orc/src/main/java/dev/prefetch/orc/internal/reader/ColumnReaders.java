package dev.prefetch.orc.internal.reader;

import dev.prefetch.CorruptFileException;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.orc.internal.stream.StringDictionary;
import dev.prefetch.orc.internal.stripe.StripeEntry;
import dev.prefetch.orc.internal.stripe.StripeIo;
import dev.prefetch.orc.internal.stripe.StripeLayout;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.orc.OrcProto;
import org.apache.orc.TypeDescription;

/**
 * Chooses, in one place, the reader of each column of a stripe from its type and the stripe's
 * encoding of it, opens its streams and builds the readers of its children; and says what it cannot
 * read: an encoding the column's type does not have is a corrupt stripe, named with its file,
 * stripe and column.
 *
 * <p>Encodings: integers, dates, timestamps, decimals, binaries, lists and maps in {@code DIRECT}
 * (RLE v1) or {@code DIRECT_V2} (RLE v2); strings, chars and varchars also in {@code DICTIONARY} or
 * {@code DICTIONARY_V2}; booleans, bytes, floats, doubles, structs and unions, whose streams do not
 * depend on the RLE version, in either direct encoding.
 */
public final class ColumnReaders {

  private static final byte[] NO_BYTES = new byte[0];

  /** The stripe, the reader's I/O and the read's settings that every reader of a stripe shares. */
  private record Context(
      StripeEntry stripe,
      StripeLayout layout,
      StripeIo io,
      ReadSettings settings,
      VectorArrayPool pool) {}

  private ColumnReaders() {}

  /**
   * The reader of one output column in one stripe.
   *
   * @param structs the column ids of the structs on the path to the column, outermost first (empty
   *     for a top-level column)
   * @param type the column's ORC type
   * @param dataType the column's type in the batches
   * @param dictionaryVectors whether a dictionary-encoded string column comes as dictionary vectors
   * @param pool the output column's arrays
   */
  public static ProjectedColumnReader create(
      int[] structs,
      TypeDescription type,
      DataType dataType,
      boolean dictionaryVectors,
      StripeEntry stripe,
      StripeIo io,
      ReadSettings settings,
      VectorArrayPool pool)
      throws IOException {
    Context context = new Context(stripe, stripe.layout(io), io, settings, pool);
    StreamInput[] presents = new StreamInput[structs.length];
    try {
      for (int i = 0; i < structs.length; i++) {
        presents[i] = open(context, structs[i], OrcProto.Stream.Kind.PRESENT);
      }
      ColumnReader field = reader(type, dataType, dictionaryVectors, context);
      return new ProjectedColumnReader(structs, presents, field);
    } catch (IOException | RuntimeException e) {
      for (StreamInput present : presents) {
        if (present != null) {
          present.close();
        }
      }
      throw e;
    }
  }

  private static ColumnReader reader(
      TypeDescription type, DataType dataType, boolean dictionaryVectors, Context context)
      throws IOException {
    int column = type.getId();
    String where = context.stripe().where() + ", column " + column;
    OrcProto.ColumnEncoding.Kind encoding = context.layout().encoding(column).getKind();
    VectorArrayPool pool = context.pool();
    ReadSettings settings = context.settings();
    StreamInput present = open(context, column, OrcProto.Stream.Kind.PRESENT);
    try {
      switch (type.getCategory()) {
        case BOOLEAN:
          direct(type, encoding, where);
          return new BooleanReader(column, where, dataType, present, data(context, column), pool);
        case BYTE:
          direct(type, encoding, where);
          return new ByteReader(column, where, dataType, present, data(context, column), pool);
        case SHORT:
          return new ShortReader(
              column,
              where,
              dataType,
              present,
              data(context, column),
              rleV2(type, encoding, where),
              pool);
        case INT:
        case DATE:
          return new IntReader(
              column,
              where,
              dataType,
              present,
              data(context, column),
              rleV2(type, encoding, where),
              type.getCategory() == TypeDescription.Category.DATE && settings.toHybridCalendar(),
              pool);
        case LONG:
          return new LongReader(
              column,
              where,
              dataType,
              present,
              data(context, column),
              rleV2(type, encoding, where),
              pool);
        case FLOAT:
          direct(type, encoding, where);
          return new FloatReader(column, where, dataType, present, data(context, column), pool);
        case DOUBLE:
          direct(type, encoding, where);
          return new DoubleReader(column, where, dataType, present, data(context, column), pool);
        case STRING:
        case CHAR:
        case VARCHAR:
          if (dictionary(encoding)) {
            BinaryVector entries = dictionary(type, dataType, encoding, context, where);
            return new StringDictionaryReader(
                column,
                where,
                dataType,
                present,
                data(context, column),
                encoding == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2,
                entries,
                dictionaryVectors,
                settings.maxBatchBytes(),
                pool);
          }
          return binary(type, dataType, encoding, present, context, where, CharLimit.of(type));
        case BINARY:
        case Geometry:
        case Geography:
          return binary(type, dataType, encoding, present, context, where, null);
        case DECIMAL:
          if (settings.decimal64()
              && type.getPrecision() <= TypeDescription.MAX_DECIMAL64_PRECISION) {
            return new Decimal64Reader(
                column, where, dataType, present, data(context, column), pool);
          }
          return new DecimalReader(
              column,
              where,
              dataType,
              present,
              data(context, column),
              stream(context, column, OrcProto.Stream.Kind.SECONDARY),
              rleV2(type, encoding, where),
              pool);
        case TIMESTAMP:
        case TIMESTAMP_INSTANT:
          {
            TimeZone zone =
                type.getCategory() == TypeDescription.Category.TIMESTAMP_INSTANT
                    ? TimestampZones.UTC
                    : TimestampZones.writerZone(
                        context.layout().writerTimezone(), settings.defaultZone());
            return new TimestampReader(
                column,
                where,
                dataType,
                present,
                data(context, column),
                stream(context, column, OrcProto.Stream.Kind.SECONDARY),
                rleV2(type, encoding, where),
                zone,
                settings.toHybridCalendar(),
                pool);
          }
        case LIST:
          {
            boolean v2 = rleV2(type, encoding, where);
            ColumnReader elements =
                reader(type.getChildren().get(0), dataType.elementField().type(), false, context);
            return new ListReader(
                column,
                where,
                dataType,
                present,
                stream(context, column, OrcProto.Stream.Kind.LENGTH),
                v2,
                elements,
                settings.maxBatchBytes(),
                pool);
          }
        case MAP:
          {
            boolean v2 = rleV2(type, encoding, where);
            ColumnReader keys =
                reader(type.getChildren().get(0), dataType.keyField().type(), false, context);
            ColumnReader values =
                reader(type.getChildren().get(1), dataType.valueField().type(), false, context);
            return new MapReader(
                column,
                where,
                dataType,
                present,
                stream(context, column, OrcProto.Stream.Kind.LENGTH),
                v2,
                keys,
                values,
                settings.maxBatchBytes(),
                pool);
          }
        case STRUCT:
          {
            direct(type, encoding, where);
            List<ColumnReader> fields = new ArrayList<>();
            for (int f = 0; f < type.getChildren().size(); f++) {
              fields.add(
                  reader(
                      type.getChildren().get(f),
                      dataType.children().get(f).type(),
                      false,
                      context));
            }
            return new StructReader(column, where, dataType, present, fields, pool);
          }
        case UNION:
          {
            direct(type, encoding, where);
            List<ColumnReader> alternatives = new ArrayList<>();
            for (int f = 0; f < type.getChildren().size(); f++) {
              alternatives.add(
                  reader(
                      type.getChildren().get(f),
                      dataType.children().get(f + 1).type(),
                      false,
                      context));
            }
            return new UnionReader(
                column, where, dataType, present, data(context, column), alternatives, pool);
          }
        default:
          throw new CorruptFileException(
              "Cannot read " + where + ": ORC type " + type + " is not one this reader knows");
      }
    } catch (IOException | RuntimeException e) {
      if (present != null) {
        present.close();
      }
      throw e;
    }
  }

  private static ColumnReader binary(
      TypeDescription type,
      DataType dataType,
      OrcProto.ColumnEncoding.Kind encoding,
      StreamInput present,
      Context context,
      String where,
      CharLimit limit)
      throws IOException {
    int column = type.getId();
    boolean v2 = rleV2(type, encoding, where);
    return new BinaryDirectReader(
        column,
        where,
        dataType,
        present,
        data(context, column),
        stream(context, column, OrcProto.Stream.Kind.LENGTH),
        v2,
        limit,
        context.settings().maxBatchBytes(),
        context.pool());
  }

  /**
   * The stripe's dictionary of a string column, decoded by the first of the stripe's readers to
   * need it and shared by all: its entries cut as orc-core cuts {@code char} and {@code varchar}
   * values, as a binary vector the column's dictionary vectors point into.
   */
  private static BinaryVector dictionary(
      TypeDescription type,
      DataType dataType,
      OrcProto.ColumnEncoding.Kind encoding,
      Context context,
      String where)
      throws IOException {
    int column = type.getId();
    StripeEntry stripe = context.stripe();
    return stripe.shared(
        column,
        context.io().ledger(),
        () -> {
          int size = context.layout().encoding(column).getDictionarySize();
          boolean v2 = encoding == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2;
          StringDictionary read;
          try (StreamInput data = stream(context, column, OrcProto.Stream.Kind.DICTIONARY_DATA);
              StreamInput lengths = stream(context, column, OrcProto.Stream.Kind.LENGTH)) {
            read = StringDictionary.read(data, IntegerDecoder.create(lengths, false, v2), size);
          }
          CharLimit limit = CharLimit.of(type);
          byte[] bytes = read.data();
          int[] offsets = read.offsets();
          if (limit != null) {
            int[] lengths = new int[size];
            for (int i = 0; i < size; i++) {
              lengths[i] = offsets[i + 1] - offsets[i];
            }
            limit.adjust(bytes, lengths, size);
            int[] adjusted = new int[size + 1];
            for (int i = 0; i < size; i++) {
              adjusted[i + 1] = adjusted[i] + lengths[i];
            }
            offsets = adjusted;
          }
          BinaryVector entries = new BinaryVector(dataType, size, bytes, offsets, null);
          return new StripeEntry.Sized<>(entries, bytes.length + 4L * offsets.length);
        });
  }

  private static boolean dictionary(OrcProto.ColumnEncoding.Kind encoding) {
    return encoding == OrcProto.ColumnEncoding.Kind.DICTIONARY
        || encoding == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2;
  }

  /** Whether an integer-based column's encoding is RLE v2; a dictionary one is corrupt. */
  private static boolean rleV2(
      TypeDescription type, OrcProto.ColumnEncoding.Kind encoding, String where)
      throws CorruptFileException {
    return switch (encoding) {
      case DIRECT -> false;
      case DIRECT_V2 -> true;
      default -> throw unknownEncoding(type, encoding, where);
    };
  }

  /** Checks a direct encoding for a type whose streams do not depend on the RLE version. */
  private static void direct(
      TypeDescription type, OrcProto.ColumnEncoding.Kind encoding, String where)
      throws CorruptFileException {
    rleV2(type, encoding, where);
  }

  private static CorruptFileException unknownEncoding(
      TypeDescription type, OrcProto.ColumnEncoding.Kind encoding, String where) {
    return new CorruptFileException(
        "Corrupt " + where + ": a " + type + " column cannot be in the encoding " + encoding);
  }

  /** The column's PRESENT, or another stream that may be absent: null when the stripe has none. */
  private static StreamInput open(Context context, int column, OrcProto.Stream.Kind kind)
      throws IOException {
    return context.stripe().open(context.io(), column, kind, "column " + column + " " + kind);
  }

  /** The column's DATA stream; an empty one when the stripe has none. */
  private static StreamInput data(Context context, int column) throws IOException {
    return stream(context, column, OrcProto.Stream.Kind.DATA);
  }

  /**
   * A stream of the column that holds its values; an empty one when the stripe has none (a column
   * whose every value is null), so that a value asked of it is a stream that ends too soon.
   */
  private static StreamInput stream(Context context, int column, OrcProto.Stream.Kind kind)
      throws IOException {
    StreamInput in = open(context, column, kind);
    return in != null
        ? in
        : context.io().decompression().open("column " + column + " " + kind, NO_BYTES, 0, 0);
  }
}
