package dev.prefetch.bench;

import dev.prefetch.testkit.baseline.RowProbe;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProgressBar;
import dev.prefetch.testkit.scan.ValueSums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.DummyRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The format libraries' own fastest full decode, as the library contenders of the benchmarks run
 * it, with the light consumer ({@link ValueSums}) instead of the checksum: parquet-hadoop's {@link
 * ColumnReader}s row group by row group (one virtual call per value, its API), orc-core's
 * vectorized {@link RecordReader} into version-2 batches (DECIMAL(p &lt;= 18) as {@link
 * Decimal64ColumnVector}, the fastest decimals orc-core offers). Each value is added in the
 * checksum's canonical form, so the sums equal our reader's over the same rows.
 *
 * <p>Flat columns only, of the types of the benchmark tables; any other type fails by name. The
 * checksum of the same reader (through {@link Contender#library}) is what the benchmarks check
 * before timing.
 */
final class LibrarySums {

  private static final int ORC_BATCH_ROWS = 1024;

  private LibrarySums() {}

  /** The library reader of the file's format over {@code columns} (all when empty), timed. */
  static Contender contender(Configuration conf, List<String> columns) {
    return new Contender() {
      @Override
      public String name() {
        return "library";
      }

      @Override
      public Scan scan(Path path, String format, boolean perColumn, ProgressBar progress)
          throws IOException {
        if (perColumn) {
          throw new IllegalArgumentException("the sums have no per-column checksums");
        }
        ValueSums sums =
            format.equals("parquet") ? parquet(path, conf, columns) : orc(path, conf, columns);
        progress.add(sums.rows());
        return new Scan(
            sums.rows(), 0, -1, sums.value(), List.of(), List.of(), false, 0, 0, -1, -1, -1);
      }

      @Override
      public void probe(Path path, String format, RowProbe probe) {
        throw new UnsupportedOperationException("the sums contender feeds no probe");
      }
    };
  }

  /** parquet-hadoop's column readers over every row group, each value added to the sums. */
  static ValueSums parquet(Path path, Configuration conf, List<String> columns) throws IOException {
    // The same codecs as the checked library reader (ParquetBaseline): parquet-hadoop's, with
    // the reader's for the two it lacks.
    ParquetReadOptions options =
        HadoopReadOptions.builder(conf, path)
            .withCodecFactory(
                new dev.prefetch.parquet.internal.codec.PageCodecs(
                    org.apache.parquet.hadoop.util.HadoopCodecs.newFactory(conf, 0)))
            .build();
    try (ParquetFileReader reader =
        new ParquetFileReader(HadoopInputFile.fromPath(path, conf), options)) {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      List<Type> fields = new ArrayList<>();
      if (columns.isEmpty()) {
        fields.addAll(fileSchema.getFields());
      } else {
        for (String name : columns) {
          fields.add(fileSchema.getType(name));
        }
      }
      MessageType requested = new MessageType(fileSchema.getName(), fields);
      reader.setRequestedSchema(requested);
      String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
      ValueSums sums = new ValueSums(fields.size());
      for (PageReadStore pages; (pages = reader.readNextRowGroup()) != null; ) {
        ColumnReadStoreImpl store =
            new ColumnReadStoreImpl(
                pages,
                new DummyRecordConverter(requested).getRootConverter(),
                requested,
                createdBy);
        long rows = pages.getRowCount();
        for (int c = 0; c < fields.size(); c++) {
          Type field = fields.get(c);
          if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            throw new IllegalArgumentException(path + ": column " + field + " is not flat");
          }
          ColumnDescriptor desc = requested.getColumnDescription(new String[] {field.getName()});
          addColumn(store.getColumnReader(desc), desc, rows, c, sums);
        }
        sums.addRows(rows);
      }
      return sums;
    }
  }

  /** One switch per column, then a tight loop: a definition level test and one add per value. */
  private static void addColumn(
      ColumnReader reader, ColumnDescriptor desc, long rows, int column, ValueSums sums) {
    int maxDef = desc.getMaxDefinitionLevel();
    PrimitiveType.PrimitiveTypeName type = desc.getPrimitiveType().getPrimitiveTypeName();
    switch (type) {
      case INT64 -> {
        for (long i = 0; i < rows; i++) {
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            sums.addLong(column, reader.getLong());
          }
          reader.consume();
        }
      }
      case INT32 -> {
        for (long i = 0; i < rows; i++) {
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            sums.addLong(column, reader.getInteger());
          }
          reader.consume();
        }
      }
      case DOUBLE -> {
        for (long i = 0; i < rows; i++) {
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            sums.addDouble(column, reader.getDouble());
          }
          reader.consume();
        }
      }
      case FLOAT -> {
        for (long i = 0; i < rows; i++) {
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            sums.addDouble(column, reader.getFloat());
          }
          reader.consume();
        }
      }
      case BOOLEAN -> {
        for (long i = 0; i < rows; i++) {
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            sums.addLong(column, reader.getBoolean() ? 1 : 0);
          }
          reader.consume();
        }
      }
      case BINARY -> {
        for (long i = 0; i < rows; i++) {
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            addBinary(reader.getBinary(), column, sums);
          }
          reader.consume();
        }
      }
      default ->
          throw new IllegalArgumentException(
              "column " + desc + " of type " + type + " is not part of the benchmark tables");
    }
  }

  /** A binary's bytes hashed where they lie (a heap buffer's array), copied only otherwise. */
  private static void addBinary(Binary binary, int column, ValueSums sums) {
    ByteBuffer bytes = binary.toByteBuffer();
    if (bytes.hasArray()) {
      sums.addBytes(
          column, bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
    } else {
      byte[] copy = binary.getBytes();
      sums.addBytes(column, copy, 0, copy.length);
    }
  }

  /** orc-core's vectorized reader over every stripe, each batch's arrays added to the sums. */
  static ValueSums orc(Path path, Configuration conf, List<String> columns) throws IOException {
    try (Reader reader =
        OrcFile.createReader(path, OrcFile.readerOptions(conf).useUTCTimestamp(true))) {
      TypeDescription schema = reader.getSchema();
      List<String> names = schema.getFieldNames();
      List<Integer> selected = new ArrayList<>();
      if (columns.isEmpty()) {
        for (int i = 0; i < names.size(); i++) {
          selected.add(i);
        }
      } else {
        for (String name : columns) {
          int i = names.indexOf(name);
          if (i < 0) {
            throw new IllegalArgumentException(path + ": no column '" + name + "'");
          }
          selected.add(i);
        }
      }
      boolean[] include = new boolean[schema.getMaximumId() + 1];
      include[0] = true;
      for (int i : selected) {
        TypeDescription child = schema.getChildren().get(i);
        for (int id = child.getId(); id <= child.getMaximumId(); id++) {
          include[id] = true;
        }
      }
      ValueSums sums = new ValueSums(selected.size());
      VectorizedRowBatch batch =
          schema.createRowBatch(TypeDescription.RowBatchVersion.USE_DECIMAL64, ORC_BATCH_ROWS);
      try (RecordReader rows = reader.rows(reader.options().include(include).useSelected(false))) {
        while (rows.nextBatch(batch)) {
          for (int c = 0; c < selected.size(); c++) {
            int field = selected.get(c);
            addOrcColumn(batch.cols[field], schema.getChildren().get(field), batch.size, c, sums);
          }
          sums.addRows(batch.size);
        }
      }
      return sums;
    }
  }

  private static void addOrcColumn(
      ColumnVector vector, TypeDescription type, int size, int column, ValueSums sums) {
    boolean[] nulls = vector.noNulls ? null : vector.isNull;
    if (vector.isRepeating) {
      // one value stands for the batch: added once per row, as the rows hold it
      for (int i = 0; i < size; i++) {
        addOrcValue(vector, type, 0, column, sums);
      }
      return;
    }
    if (vector instanceof Decimal64ColumnVector v) {
      sums.addLongs(column, v.vector, 0, size, nulls, 0);
    } else if (vector instanceof LongColumnVector v) {
      sums.addLongs(column, v.vector, 0, size, nulls, 0);
    } else if (vector instanceof DoubleColumnVector v) {
      // a FLOAT column's doubles were widened from floats: the canonical form is that double
      sums.addDoubles(column, v.vector, 0, size, nulls, 0);
    } else {
      for (int i = 0; i < size; i++) {
        addOrcValue(vector, type, i, column, sums);
      }
    }
  }

  private static void addOrcValue(
      ColumnVector vector, TypeDescription type, int i, int column, ValueSums sums) {
    if (!vector.noNulls && vector.isNull[i]) {
      sums.addNull(column);
      return;
    }
    switch (type.getCategory()) {
      case BOOLEAN, BYTE, SHORT, INT, LONG, DATE ->
          sums.addLong(column, ((LongColumnVector) vector).vector[i]);
      case DECIMAL -> {
        if (!(vector instanceof Decimal64ColumnVector v)) {
          throw new IllegalArgumentException(
              "ORC column of type " + type + " is wider than the benchmark tables' decimals");
        }
        sums.addLong(column, v.vector[i]);
      }
      case FLOAT, DOUBLE -> sums.addDouble(column, ((DoubleColumnVector) vector).vector[i]);
      case STRING, VARCHAR, CHAR, BINARY -> {
        BytesColumnVector v = (BytesColumnVector) vector;
        sums.addBytes(column, v.vector[i], v.start[i], v.length[i]);
      }
      case TIMESTAMP, TIMESTAMP_INSTANT -> {
        // nanoseconds since the epoch, as the checksum's canonical form of an ORC timestamp
        TimestampColumnVector v = (TimestampColumnVector) vector;
        sums.addLong(column, Math.floorDiv(v.time[i], 1000) * 1_000_000_000L + v.nanos[i]);
      }
      default ->
          throw new IllegalArgumentException(
              "ORC column of type " + type + " is not part of the benchmark tables");
    }
  }
}
