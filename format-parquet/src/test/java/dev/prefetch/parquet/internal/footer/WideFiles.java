package dev.prefetch.parquet.internal.footer;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Writes deterministic wide Parquet files with parquet-hadoop's example writer: {@code columns}
 * int64 columns (every third optional, with nulls), a string column, and optionally a nested list
 * column; exactly {@code rowsPerGroup} rows per row group.
 */
final class WideFiles {

  record Spec(
      int columns,
      int rowGroups,
      int rowsPerGroup,
      boolean statistics,
      boolean nested,
      boolean dictionary) {

    Spec(int columns, int rowGroups, int rowsPerGroup, boolean statistics, boolean nested) {
      this(columns, rowGroups, rowsPerGroup, statistics, nested, false);
    }
  }

  private WideFiles() {}

  static MessageType schema(Spec spec) {
    Types.MessageTypeBuilder builder = Types.buildMessage();
    for (int c = 0; c < spec.columns(); c++) {
      Repetition repetition = c % 3 == 2 ? Repetition.OPTIONAL : Repetition.REQUIRED;
      builder.primitive(PrimitiveTypeName.INT64, repetition).named("c" + c);
    }
    builder.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("s");
    if (spec.nested()) {
      builder
          .optionalGroup()
          .as(LogicalTypeAnnotation.listType())
          .repeatedGroup()
          .optional(PrimitiveTypeName.INT32)
          .named("element")
          .named("list")
          .named("n");
    }
    return builder.named("wide");
  }

  static long value(long row, int column) {
    return row * 31 + column * 1_000_003L ^ (row >>> 3);
  }

  /** Writes through parquet's local-file output (no Hadoop filesystem needed). */
  static Path write(Path path, Spec spec) throws IOException {
    MessageType schema = schema(spec);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(java.nio.file.Path.of(path.toUri())))
            .withType(schema)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
            .withRowGroupRowCountLimit(spec.rowsPerGroup())
            .withRowGroupSize(Long.MAX_VALUE / 2)
            .withPageRowCountLimit(Math.max(1, spec.rowsPerGroup() / 2))
            .withStatisticsEnabled(spec.statistics())
            .withSizeStatisticsEnabled(spec.statistics())
            .withDictionaryEncoding(spec.dictionary())
            .withExtraMetaData(java.util.Map.of("writer.note", "wide " + spec.columns()))
            .build()) {
      long rows = (long) spec.rowGroups() * spec.rowsPerGroup();
      for (long row = 0; row < rows; row++) {
        Group group = groups.newGroup();
        for (int c = 0; c < spec.columns(); c++) {
          if (c % 3 == 2 && (row + c) % 5 == 0) {
            continue;
          }
          group.add(c, value(row, c));
        }
        if (row % 4 != 1) {
          group.add(spec.columns(), "s" + row);
        }
        if (spec.nested() && row % 3 != 0) {
          Group list = group.addGroup(spec.columns() + 1);
          for (int e = 0; e < row % 4; e++) {
            list.addGroup(0).add(0, (int) (row + e));
          }
        }
        writer.write(group);
      }
    }
    return path;
  }

  static InputFile input(Path path) {
    return new LocalInputFile(java.nio.file.Path.of(path.toUri()));
  }

  static FooterBytes footer(Path path) throws IOException {
    InputFile input = input(path);
    try (SeekableInputStream in = input.newStream()) {
      return FooterBytes.read(in, input.getLength(), path.toString());
    }
  }

  static byte[] footerArray(Path path) throws IOException {
    ByteBuffer buffer = footer(path).metadata();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
