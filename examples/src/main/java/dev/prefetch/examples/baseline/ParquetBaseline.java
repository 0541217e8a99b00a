package dev.prefetch.examples.baseline;

import java.io.IOException;
import java.math.BigInteger;
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
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
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

  private static final long JULIAN_EPOCH_DAY = 2_440_588L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;

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
                new dev.prefetch.parquet.internal.PageCodecs(
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

  /**
   * How a leaf column's values are fed: the reader's documented type mapping applied to
   * parquet-hadoop's physical values (README, "Type mapping").
   */
  enum ValueKind {
    LONG,
    INT,
    UINT32,
    UINT64,
    BOOLEAN,
    FLOAT,
    DOUBLE,
    FLOAT16,
    BYTES,
    DECIMAL_BYTES_LONG,
    DECIMAL_BYTES_WIDE,
    INT96_MICROS,
    INT96_NANOS
  }

  static ValueKind kindOf(PrimitiveType type, boolean int96Nanos) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    boolean decimal = logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
    boolean unsigned =
        logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return ValueKind.BOOLEAN;
      case INT32:
        // INT(8/16, unsigned) values are small and non-negative as stored; INT(32, unsigned)
        // uses the sign bit
        return unsigned
                && ((LogicalTypeAnnotation.IntLogicalTypeAnnotation) logical).getBitWidth() == 32
            ? ValueKind.UINT32
            : ValueKind.INT;
      case INT64:
        return unsigned ? ValueKind.UINT64 : ValueKind.LONG;
      case FLOAT:
        return ValueKind.FLOAT;
      case DOUBLE:
        return ValueKind.DOUBLE;
      case INT96:
        return int96Nanos ? ValueKind.INT96_NANOS : ValueKind.INT96_MICROS;
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        if (decimal) {
          int precision =
              ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) logical).getPrecision();
          return precision <= 18 ? ValueKind.DECIMAL_BYTES_LONG : ValueKind.DECIMAL_BYTES_WIDE;
        }
        if (logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation
            && type.getTypeLength() == 2) {
          return ValueKind.FLOAT16;
        }
        return ValueKind.BYTES;
      default:
        throw new IllegalStateException("unknown type " + type);
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
    ValueKind kind = kindOf(desc.getPrimitiveType(), int96Nanos);
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
            feed(kind, reader, column, sums);
          }
          reader.consume();
        }
      }
    }
  }

  /** Feeds the reader's current (non-null) value. */
  static void feed(ValueKind kind, ColumnReader reader, int column, ValueSink sums) {
    switch (kind) {
      case LONG -> sums.addLong(column, reader.getLong());
      case INT -> sums.addLong(column, reader.getInteger());
      case UINT32 -> sums.addLong(column, reader.getInteger() & 0xFFFF_FFFFL);
      case UINT64 -> feedUnsigned64(reader.getLong(), column, sums);
      case BOOLEAN -> sums.addLong(column, reader.getBoolean() ? 1 : 0);
      case FLOAT -> sums.addDouble(column, reader.getFloat());
      case DOUBLE -> sums.addDouble(column, reader.getDouble());
      default -> feedBinary(kind, reader.getBinary(), column, sums);
    }
  }

  /** INT(64, unsigned) maps to DECIMAL(20, 0): the minimal bytes of the unsigned value. */
  static void feedUnsigned64(long value, int column, ValueSink sums) {
    byte[] bytes = new BigInteger(Long.toUnsignedString(value)).toByteArray();
    sums.addBytes(column, bytes, 0, bytes.length);
  }

  /**
   * An IEEE 754 half-precision value (little endian, as FLOAT16 is stored) widened to float,
   * exactly: every half value is a float value.
   */
  static float halfToFloat(int bits) {
    int sign = (bits >>> 15) & 1;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    float magnitude;
    if (exponent == 0) {
      magnitude = mantissa * 0x1p-24f; // subnormal (or zero)
    } else if (exponent == 31) {
      magnitude = mantissa == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else {
      magnitude = (1 + mantissa / 1024f) * (float) Math.pow(2, exponent - 15);
    }
    return sign == 1 ? -magnitude : magnitude;
  }

  static void feedBinary(ValueKind kind, Binary binary, int column, ValueSink sums) {
    byte[] bytes = binary.getBytesUnsafe();
    switch (kind) {
      case BYTES -> sums.addBytes(column, bytes, 0, bytes.length);
      case FLOAT16 ->
          sums.addDouble(column, halfToFloat((bytes[0] & 0xFF) | (bytes[1] & 0xFF) << 8));
      case DECIMAL_BYTES_LONG ->
          sums.addLong(column, bytes.length == 0 ? 0 : new BigInteger(bytes).longValue());
      case DECIMAL_BYTES_WIDE -> {
        byte[] minimal = bytes.length == 0 ? new byte[] {0} : new BigInteger(bytes).toByteArray();
        sums.addBytes(column, minimal, 0, minimal.length);
      }
      case INT96_MICROS, INT96_NANOS -> {
        // 8 bytes little-endian nanos of day, then 4 bytes little-endian (signed) Julian day.
        long nanosOfDay = 0;
        for (int i = 7; i >= 0; i--) {
          nanosOfDay = (nanosOfDay << 8) | (bytes[i] & 0xFFL);
        }
        long julianDay =
            (bytes[8] & 0xFFL)
                | (bytes[9] & 0xFFL) << 8
                | (bytes[10] & 0xFFL) << 16
                | (long) bytes[11] << 24;
        // Microseconds since the epoch (the default mapping): the signed day times a day's
        // microseconds plus the whole microseconds of the day, exact for every int day. As
        // nanoseconds, a value outside their range fails as the reader fails, never wraps.
        sums.addLong(
            column,
            kind == ValueKind.INT96_MICROS
                ? Math.addExact(
                    Math.multiplyExact(julianDay - JULIAN_EPOCH_DAY, MICROS_PER_DAY),
                    Math.floorDiv(nanosOfDay, 1000L))
                : Math.addExact(
                    Math.multiplyExact(julianDay - JULIAN_EPOCH_DAY, MICROS_PER_DAY * 1000L),
                    nanosOfDay));
      }
      default -> throw new IllegalStateException("not a binary kind " + kind);
    }
  }

  /**
   * Walks the rows of one nested top-level column over its buffered leaves. Every leaf below a node
   * has one entry per node value, so a null or empty node advances each of its leaves by exactly
   * one entry, and an element advances them by the entries of that element.
   *
   * <p>Lists follow the reader's mapping, the backward-compatibility rules of the Parquet
   * LogicalTypes specification: in a LIST group, the repeated field is the element when it is
   * primitive, a group of several fields, or a one-field group named {@code array} or {@code <list
   * name>_tuple}; otherwise it wraps the element (three levels). A repeated field outside LIST and
   * MAP (also a top-level one) is a list whose elements are that field's values (a group's as a
   * struct).
   */
  private static final class NestedWalker {
    private final MessageType schema;
    private final Type top;
    private final int column;
    private final boolean int96Nanos;
    private ValueSink sums;
    private final java.util.Map<Type, Leaf> leaves = new java.util.IdentityHashMap<>();
    private final java.util.Map<Type, int[]> levels = new java.util.IdentityHashMap<>();

    NestedWalker(
        MessageType schema, Type top, ColumnReadStoreImpl store, int column, boolean int96Nanos) {
      this.schema = schema;
      this.top = top;
      this.column = column;
      this.int96Nanos = int96Nanos;
      index(top, new ArrayList<>(), 0, 0, store);
    }

    /** Records each node's definition and repetition level, and buffers each leaf. */
    private void index(
        Type node,
        List<String> parentPath,
        int parentDef,
        int parentRep,
        ColumnReadStoreImpl store) {
      List<String> path = new ArrayList<>(parentPath);
      path.add(node.getName());
      int def = parentDef + (node.isRepetition(Type.Repetition.REQUIRED) ? 0 : 1);
      int rep = parentRep + (node.isRepetition(Type.Repetition.REPEATED) ? 1 : 0);
      levels.put(node, new int[] {def, rep});
      if (node.isPrimitive()) {
        ColumnDescriptor desc = schema.getColumnDescription(path.toArray(new String[0]));
        leaves.put(node, Leaf.load(store.getColumnReader(desc), desc, int96Nanos));
      } else {
        for (Type child : node.asGroupType().getFields()) {
          index(child, path, def, rep, store);
        }
      }
    }

    void emitTop(ValueSink target) {
      this.sums = target;
      sums.startRow(column);
      emitField(top);
    }

    private Leaf firstLeaf(Type node) {
      Type t = node;
      while (!t.isPrimitive()) {
        t = t.asGroupType().getType(0);
      }
      return leaves.get(t);
    }

    private void advance(Type node) {
      if (node.isPrimitive()) {
        leaves.get(node).pos++;
      } else {
        for (Type child : node.asGroupType().getFields()) {
          advance(child);
        }
      }
    }

    /** A field of a struct (or a top-level column): a repeated one is a list. */
    private void emitField(Type field) {
      if (field.isRepetition(Type.Repetition.REPEATED)) {
        emitRepeated(field, Context.UNANNOTATED, null);
      } else {
        emitValue(field);
      }
    }

    /** Emits the value of a non-repeated node. */
    private void emitValue(Type node) {
      Leaf first = firstLeaf(node);
      int d = first.def[first.pos];
      int nodeDef = levels.get(node)[0];
      if (d < nodeDef) {
        sums.addNull(column);
        advance(node);
        return;
      }
      if (node.isPrimitive()) {
        Leaf leaf = leaves.get(node);
        leaf.emit(column, sums);
        leaf.pos++;
        return;
      }
      GroupType group = node.asGroupType();
      LogicalTypeAnnotation logical = group.getLogicalTypeAnnotation();
      boolean oneRepeated =
          group.getFieldCount() == 1 && group.getType(0).isRepetition(Type.Repetition.REPEATED);
      boolean isList =
          logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && oneRepeated;
      boolean isMap =
          (logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                  || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)
              && oneRepeated
              && !group.getType(0).isPrimitive()
              && group.getType(0).asGroupType().getFieldCount() == 2;
      if (isList) {
        emitRepeated(group.getType(0), Context.LIST, group.getName());
      } else if (isMap) {
        emitRepeated(group.getType(0), Context.MAP, group.getName());
      } else {
        emitStruct(group);
      }
    }

    private void emitStruct(GroupType group) {
      for (Type child : group.getFields()) {
        emitField(child);
      }
    }

    /** Where a repeated field sits, which decides what its element is. */
    private enum Context {
      LIST,
      MAP,
      UNANNOTATED
    }

    /** A list or map: its length, then each element (or key and value). */
    private void emitRepeated(Type repeated, Context context, String listName) {
      Leaf first = firstLeaf(repeated);
      int[] lv = levels.get(repeated);
      if (first.def[first.pos] < lv[0]) {
        sums.addLong(column, 0);
        advance(repeated);
        return;
      }
      int count = first.countElements(lv[1]);
      sums.addLong(column, count);
      boolean repeatedIsElement =
          context == Context.UNANNOTATED
              || repeated.isPrimitive()
              || context == Context.LIST
                  && (repeated.asGroupType().getFieldCount() > 1
                      || repeated.getName().equals("array")
                      || repeated.getName().equals(listName + "_tuple"));
      for (int i = 0; i < count; i++) {
        if (repeated.isPrimitive()) {
          Leaf leaf = leaves.get(repeated);
          leaf.emit(column, sums);
          leaf.pos++;
        } else if (context == Context.MAP || repeatedIsElement) {
          // a map entry's key and value, or the repeated group itself as a struct element
          emitStruct(repeated.asGroupType());
        } else {
          // three-level list: the repeated group wraps the element
          emitField(repeated.asGroupType().getType(0));
        }
      }
    }
  }

  /** The levels and values of one leaf column for one row group. */
  private static final class Leaf {
    final int[] rep;
    final int[] def;
    final int maxDef;
    final ValueKind kind;
    final long[] longs;
    final double[] doubles;
    final Binary[] binaries;
    int pos;

    private Leaf(int n, int maxDef, ValueKind kind) {
      this.rep = new int[n];
      this.def = new int[n];
      this.maxDef = maxDef;
      this.kind = kind;
      boolean binary =
          kind == ValueKind.BYTES
              || kind == ValueKind.DECIMAL_BYTES_LONG
              || kind == ValueKind.DECIMAL_BYTES_WIDE
              || kind == ValueKind.INT96_MICROS
              || kind == ValueKind.INT96_NANOS
              || kind == ValueKind.FLOAT16;
      boolean floating = kind == ValueKind.FLOAT || kind == ValueKind.DOUBLE;
      this.longs = binary || floating ? null : new long[n];
      this.doubles = floating ? new double[n] : null;
      this.binaries = binary ? new Binary[n] : null;
    }

    static Leaf load(ColumnReader reader, ColumnDescriptor desc, boolean int96Nanos) {
      int n = Math.toIntExact(reader.getTotalValueCount());
      Leaf leaf =
          new Leaf(n, desc.getMaxDefinitionLevel(), kindOf(desc.getPrimitiveType(), int96Nanos));
      for (int i = 0; i < n; i++) {
        leaf.rep[i] = reader.getCurrentRepetitionLevel();
        int d = reader.getCurrentDefinitionLevel();
        leaf.def[i] = d;
        if (d == leaf.maxDef) {
          switch (leaf.kind) {
            case LONG -> leaf.longs[i] = reader.getLong();
            case INT -> leaf.longs[i] = reader.getInteger();
            case UINT32 -> leaf.longs[i] = reader.getInteger() & 0xFFFF_FFFFL;
            case UINT64 -> leaf.longs[i] = reader.getLong();
            case BOOLEAN -> leaf.longs[i] = reader.getBoolean() ? 1 : 0;
            case FLOAT -> leaf.doubles[i] = reader.getFloat();
            case DOUBLE -> leaf.doubles[i] = reader.getDouble();
            default -> leaf.binaries[i] = reader.getBinary().copy();
          }
        }
        reader.consume();
      }
      return leaf;
    }

    void emit(int column, ValueSink sums) {
      if (def[pos] < maxDef) {
        sums.addNull(column);
        return;
      }
      switch (kind) {
        case LONG, INT, UINT32, BOOLEAN -> sums.addLong(column, longs[pos]);
        case UINT64 -> feedUnsigned64(longs[pos], column, sums);
        case FLOAT, DOUBLE -> sums.addDouble(column, doubles[pos]);
        default -> feedBinary(kind, binaries[pos], column, sums);
      }
    }

    /** Elements of the list starting at {@code pos} whose repeated node has level {@code r}. */
    int countElements(int r) {
      int count = 1;
      for (int p = pos + 1; p < rep.length && rep[p] >= r; p++) {
        if (rep[p] == r) {
          count++;
        }
      }
      return count;
    }
  }
}
