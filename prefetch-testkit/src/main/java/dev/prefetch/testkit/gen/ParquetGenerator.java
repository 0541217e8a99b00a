package dev.prefetch.testkit.gen;

import java.io.IOException;
import java.util.HashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/** Writes a generated table as Parquet with parquet-hadoop's own writer. */
public final class ParquetGenerator {

  private ParquetGenerator() {}

  /** Writes {@code spec} to {@code out}, replacing it. */
  public static void write(GenSpec spec, Path out, Configuration conf) throws IOException {
    write(spec, out, conf, 0);
  }

  /**
   * Writes rows {@code [firstRow, firstRow + spec.rows())} of the table {@code spec} describes to
   * {@code out}, replacing it: the files of consecutive pieces hold, one after another, the same
   * values as one file of all their rows.
   */
  public static void write(GenSpec spec, Path out, Configuration conf, long firstRow)
      throws IOException {
    if (firstRow < 0) {
      throw new IllegalArgumentException("first row must not be negative: " + firstRow);
    }
    MessageType schema = schema(spec);
    RowWriteSupport support = new RowWriteSupport(spec, schema);
    ParquetWriter.Builder<Long, ?> builder =
        new Builder(out, support)
            .withConf(conf)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            .withCompressionCodec(GenCodec.named(spec.codec()).parquet)
            .withPageSize(spec.pageBytes())
            .withDictionaryPageSize(Math.max(spec.pageBytes(), 1 << 20))
            .withDictionaryEncoding(spec.dictionary())
            .withStatisticsEnabled(spec.statistics())
            .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
            .withMaxPaddingSize(0);
    if (!spec.pageIndex()) {
      // parquet-hadoop has no switch for page indexes: without statistics it writes no
      // ColumnIndex (the OffsetIndex, which only locates pages, is always written).
      builder.withStatisticsEnabled(false);
    }
    if (spec.rowGroups() > 0) {
      builder
          .withRowGroupRowCountLimit(Math.toIntExact(spec.rowsPerGroup()))
          .withRowGroupSize(Long.MAX_VALUE / 4);
    } else {
      builder.withRowGroupSize(spec.rowGroupBytes());
    }
    try (ParquetWriter<Long> writer = builder.build()) {
      for (long row = firstRow; row < firstRow + spec.rows(); row++) {
        writer.write(row);
      }
    }
  }

  /** The Parquet schema of a generated table. */
  public static MessageType schema(GenSpec spec) {
    LogicalTypeAnnotation string = LogicalTypeAnnotation.stringType();
    switch (spec.kind()) {
      case SCAN:
        return Types.buildMessage()
            .required(PrimitiveTypeName.INT64)
            .named("id")
            .required(PrimitiveTypeName.INT32)
            .named("qty")
            .required(PrimitiveTypeName.DOUBLE)
            .named("price")
            .required(PrimitiveTypeName.BINARY)
            .as(string)
            .named("category")
            .required(PrimitiveTypeName.BINARY)
            .as(string)
            .named("customer")
            .optional(PrimitiveTypeName.BINARY)
            .as(string)
            .named("comment")
            .required(PrimitiveTypeName.INT32)
            .as(LogicalTypeAnnotation.dateType())
            .named("day")
            .required(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
            .named("ts")
            .required(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.decimalType(Tables.AMOUNT_SCALE, Tables.AMOUNT_PRECISION))
            .named("amount")
            .required(PrimitiveTypeName.BOOLEAN)
            .named("active")
            .required(PrimitiveTypeName.FLOAT)
            .named("ratio")
            .optional(PrimitiveTypeName.INT64)
            .named("code")
            .named("scan");
      case WIDE:
        {
          Types.MessageTypeBuilder b = Types.buildMessage();
          for (int c = 0; c < spec.columns(); c++) {
            b.required(PrimitiveTypeName.INT64).named(Tables.wideColumn(c));
          }
          return b.named("wide");
        }
      case NESTED:
        return Types.buildMessage()
            .required(PrimitiveTypeName.INT64)
            .named("id")
            .optionalList()
            .optionalElement(PrimitiveTypeName.BINARY)
            .as(string)
            .named("tags")
            .optionalMap()
            .key(PrimitiveTypeName.BINARY)
            .as(string)
            .optionalValue(PrimitiveTypeName.INT64)
            .named("attrs")
            .optionalGroup()
            .required(PrimitiveTypeName.DOUBLE)
            .named("x")
            .required(PrimitiveTypeName.DOUBLE)
            .named("y")
            .named("point")
            .optionalList()
            .optionalGroupElement()
            .required(PrimitiveTypeName.INT32)
            .named("kind")
            .required(PrimitiveTypeName.DOUBLE)
            .named("value")
            .named("events")
            .named("nested");
      default:
        throw new IllegalStateException("unknown kind " + spec.kind());
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Long, Builder> {
    private final RowWriteSupport support;

    Builder(Path path, RowWriteSupport support) {
      super(path);
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Long> getWriteSupport(Configuration conf) {
      return support;
    }
  }

  /** Writes row {@code r} of the table straight to the record consumer (no object model). */
  private static final class RowWriteSupport extends WriteSupport<Long> {
    private final GenSpec spec;
    private final MessageType schema;
    private final long seed;
    private RecordConsumer out;

    RowWriteSupport(GenSpec spec, MessageType schema) {
      this.spec = spec;
      this.schema = schema;
      this.seed = spec.seed();
    }

    @Override
    public WriteContext init(Configuration configuration) {
      HashMap<String, String> meta = new HashMap<>();
      meta.put("prefetch.gen", spec.fingerprint());
      return new WriteContext(schema, meta);
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      this.out = recordConsumer;
    }

    @Override
    public void write(Long boxedRow) {
      long row = boxedRow;
      out.startMessage();
      switch (spec.kind()) {
        case SCAN -> writeScan(row);
        case WIDE -> writeWide(row);
        case NESTED -> writeNested(row);
        default -> throw new IllegalStateException("unknown kind " + spec.kind());
      }
      out.endMessage();
    }

    private void writeScan(long row) {
      longField("id", 0, row);
      intField("qty", 1, Tables.qty(seed, row));
      out.startField("price", 2);
      out.addDouble(Tables.price(seed, row));
      out.endField("price", 2);
      bytesField("category", 3, Tables.category(seed, row));
      bytesField("customer", 4, Tables.customer(seed, row));
      byte[] comment = Tables.comment(seed, row);
      if (comment != null) {
        bytesField("comment", 5, comment);
      }
      intField("day", 6, Tables.day(seed, row));
      longField("ts", 7, Tables.tsMicros(seed, row));
      longField("amount", 8, Tables.amountUnscaled(seed, row));
      out.startField("active", 9);
      out.addBoolean(Tables.active(seed, row));
      out.endField("active", 9);
      out.startField("ratio", 10);
      out.addFloat(Tables.ratio(seed, row));
      out.endField("ratio", 10);
      if (!Tables.codeIsNull(seed, row)) {
        longField("code", 11, Tables.code(seed, row));
      }
    }

    private void writeWide(long row) {
      for (int c = 0; c < spec.columns(); c++) {
        longField(Tables.wideColumn(c), c, Tables.wide(seed, row, c));
      }
    }

    private void writeNested(long row) {
      longField("id", 0, row);

      int tags = Tables.tagsLength(seed, row);
      if (tags >= 0) {
        out.startField("tags", 1);
        out.startGroup();
        if (tags > 0) {
          out.startField("list", 0);
          for (int i = 0; i < tags; i++) {
            out.startGroup();
            byte[] tag = Tables.tag(seed, row, i);
            if (tag != null) {
              bytesField("element", 0, tag);
            }
            out.endGroup();
          }
          out.endField("list", 0);
        }
        out.endGroup();
        out.endField("tags", 1);
      }

      int attrs = Tables.attrsLength(seed, row);
      if (attrs >= 0) {
        out.startField("attrs", 2);
        out.startGroup();
        if (attrs > 0) {
          out.startField("key_value", 0);
          for (int i = 0; i < attrs; i++) {
            out.startGroup();
            bytesField("key", 0, Tables.attrKey(i));
            if (!Tables.attrValueIsNull(seed, row, i)) {
              longField("value", 1, Tables.attrValue(seed, row, i));
            }
            out.endGroup();
          }
          out.endField("key_value", 0);
        }
        out.endGroup();
        out.endField("attrs", 2);
      }

      if (!Tables.pointIsNull(seed, row)) {
        out.startField("point", 3);
        out.startGroup();
        doubleField("x", 0, Tables.pointX(seed, row));
        doubleField("y", 1, Tables.pointY(seed, row));
        out.endGroup();
        out.endField("point", 3);
      }

      int events = Tables.eventsLength(seed, row);
      if (events >= 0) {
        out.startField("events", 4);
        out.startGroup();
        if (events > 0) {
          out.startField("list", 0);
          for (int i = 0; i < events; i++) {
            out.startGroup();
            if (!Tables.eventIsNull(seed, row, i)) {
              out.startField("element", 0);
              out.startGroup();
              intField("kind", 0, Tables.eventKind(seed, row, i));
              doubleField("value", 1, Tables.eventValue(seed, row, i));
              out.endGroup();
              out.endField("element", 0);
            }
            out.endGroup();
          }
          out.endField("list", 0);
        }
        out.endGroup();
        out.endField("events", 4);
      }
    }

    private void longField(String name, int index, long value) {
      out.startField(name, index);
      out.addLong(value);
      out.endField(name, index);
    }

    private void intField(String name, int index, int value) {
      out.startField(name, index);
      out.addInteger(value);
      out.endField(name, index);
    }

    private void doubleField(String name, int index, double value) {
      out.startField(name, index);
      out.addDouble(value);
      out.endField(name, index);
    }

    private void bytesField(String name, int index, byte[] value) {
      out.startField(name, index);
      out.addBinary(Binary.fromReusedByteArray(value));
      out.endField(name, index);
    }
  }
}
