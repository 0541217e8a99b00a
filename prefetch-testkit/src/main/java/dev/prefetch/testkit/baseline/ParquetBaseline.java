package dev.prefetch.testkit.baseline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.DummyRecordConverter;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The fastest full decode parquet-hadoop itself offers: {@link ParquetFileReader} row group by row
 * group, and a {@link ColumnReader} per leaf column that reads every value, with no record assembly
 * into objects.
 *
 * <p>Values are fed to the checksum in the canonical form of {@link dev.prefetch.testing.Checksum}:
 * flat columns straight from their column reader; a nested top-level column is buffered for the row
 * group (levels and values of each of its leaves) and walked row by row, so that a list feeds its
 * length before its elements and a struct its fields in order.
 */
public final class ParquetBaseline {

  private ParquetBaseline() {}

  /**
   * Reads every value of the selected top-level columns (all when {@code columns} is empty).
   *
   * @param filter a parquet predicate applied as parquet-hadoop applies it (row groups by
   *     statistics and dictionaries, pages by column index), or null
   * @param rowGroups row group indexes to read, or null for all
   * @param rows the file rows to feed, or null for all (not with a filter: page filtering drops
   *     rows)
   */
  public static BaselineResult scan(
      Path path,
      Configuration conf,
      List<String> columns,
      FilterPredicate filter,
      List<Integer> rowGroups,
      dev.prefetch.RowRange rows,
      boolean perColumn)
      throws IOException {
    return scan(path, conf, columns, filter, rowGroups, rows, perColumn, false, null);
  }

  /**
   * As {@link #scan(Path, Configuration, List, FilterPredicate, List, dev.prefetch.RowRange,
   * boolean)}, with INT96 timestamps as nanoseconds when {@code int96Nanos} (else microseconds, the
   * reader's default), and every selected value also fed to {@code probe} when not null.
   */
  public static BaselineResult scan(
      Path path,
      Configuration conf,
      List<String> columns,
      FilterPredicate filter,
      List<Integer> rowGroups,
      dev.prefetch.RowRange rows,
      boolean perColumn,
      boolean int96Nanos,
      ValueSink probe)
      throws IOException {
    // Pages are decompressed with parquet-hadoop's codecs and, for the two it lacks (legacy
    // LZ4 and BROTLI), with the reader's; decoding and the type mapping stay the library's.
    ParquetReadOptions.Builder options =
        HadoopReadOptions.builder(conf, path)
            .withCodecFactory(
                new dev.prefetch.parquet.internal.codec.PageCodecs(
                    org.apache.parquet.hadoop.util.HadoopCodecs.newFactory(conf, 0)));
    if (filter != null) {
      options.withRecordFilter(FilterCompat.get(filter));
    }
    try (ParquetFileReader reader =
        new ParquetFileReader(HadoopInputFile.fromPath(path, conf), options.build())) {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
      List<Type> fields = new ArrayList<>();
      if (columns.isEmpty()) {
        fields.addAll(fileSchema.getFields());
      } else {
        for (String name : columns) {
          if (!fileSchema.containsField(name)) {
            throw new IllegalArgumentException(path + ": no column '" + name + "'");
          }
          fields.add(fileSchema.getType(name));
        }
      }
      MessageType requested = new MessageType(fileSchema.getName(), fields);
      reader.setRequestedSchema(requested);
      ColumnChecksums sums = new ColumnChecksums(fields.size(), perColumn);
      ValueSink sink = Tee.of(sums, probe);
      // Rows outside the selection are decoded like the others and fed to a discarded checksum.
      ColumnChecksums discard = new ColumnChecksums(fields.size(), false);
      long groups = 0;
      int blockCount = reader.getRowGroups().size();
      long groupFirstRow = 0;
      for (int block = 0; block < blockCount; block++) {
        PageReadStore pages;
        long firstRow = groupFirstRow;
        groupFirstRow += reader.getRowGroups().get(block).getRowCount();
        boolean overlaps = rows == null || rows.overlaps(firstRow, groupFirstRow);
        if (rowGroups != null && !rowGroups.contains(block) || !overlaps) {
          reader.skipNextRowGroup();
          continue;
        }
        pages = filter != null ? reader.readNextFilteredRowGroup() : reader.readNextRowGroup();
        if (pages == null) {
          break;
        }
        groups++;
        ColumnReadStoreImpl store =
            new ColumnReadStoreImpl(
                pages,
                new DummyRecordConverter(requested).getRootConverter(),
                requested,
                createdBy);
        long count = pages.getRowCount();
        // Rows of the group to skip before and after the selection.
        long skip = rows == null ? 0 : Math.max(0, rows.start() - firstRow);
        long take =
            rows == null ? count : Math.max(0, Math.min(count, rows.end() - firstRow) - skip);
        for (int t = 0; t < fields.size(); t++) {
          Type field = fields.get(t);
          if (field.isPrimitive() && !field.isRepetition(Type.Repetition.REPEATED)) {
            ColumnDescriptor desc = requested.getColumnDescription(new String[] {field.getName()});
            ColumnReader column = store.getColumnReader(desc);
            streamFlat(column, desc, skip, t, discard, int96Nanos);
            streamFlat(column, desc, take, t, sink, int96Nanos);
          } else {
            NestedWalker walker = new NestedWalker(requested, field, store, t, int96Nanos);
            for (long r = 0; r < skip; r++) {
              walker.emitTop(discard);
            }
            for (long r = 0; r < take; r++) {
              walker.emitTop(sink);
            }
          }
        }
        sums.addRows(take);
      }
      List<String> names = new ArrayList<>();
      for (Type f : fields) {
        names.add(f.getName());
      }
      return new BaselineResult(
          sums.rows(), groups, fields.size(), sums.value(), sums.columnValues(), names);
    }
  }

  private static void streamFlat(
      ColumnReader reader,
      ColumnDescriptor desc,
      long rows,
      int column,
      ValueSink sums,
      boolean int96Nanos) {
    int maxDef = desc.getMaxDefinitionLevel();
    ParquetValues.ValueKind kind = ParquetValues.kindOf(desc.getPrimitiveType(), int96Nanos);
    // One switch per column, then a tight loop per kind.
    switch (kind) {
      case LONG -> {
        for (long i = 0; i < rows; i++) {
          sums.startRow(column);
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            sums.addLong(column, reader.getLong());
          }
          reader.consume();
        }
      }
      case INT -> {
        for (long i = 0; i < rows; i++) {
          sums.startRow(column);
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
          sums.startRow(column);
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            sums.addDouble(column, reader.getDouble());
          }
          reader.consume();
        }
      }
      default -> {
        for (long i = 0; i < rows; i++) {
          sums.startRow(column);
          if (reader.getCurrentDefinitionLevel() < maxDef) {
            sums.addNull(column);
          } else {
            ParquetValues.feed(kind, reader, column, sums);
          }
          reader.consume();
        }
      }
    }
  }
}
