package dev.prefetch.testkit.baseline;

import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Walks the rows of one nested top-level column over its buffered leaves. Every leaf below a node
 * has one entry per node value, so a null or empty node advances each of its leaves by exactly one
 * entry, and an element advances them by the entries of that element.
 *
 * <p>Lists follow the reader's mapping, the backward-compatibility rules of the Parquet
 * LogicalTypes specification: in a LIST group, the repeated field is the element when it is
 * primitive, a group of several fields, or a one-field group named {@code array} or {@code <list
 * name>_tuple}; otherwise it wraps the element (three levels). A repeated field outside LIST and
 * MAP (also a top-level one) is a list whose elements are that field's values (a group's as a
 * struct).
 */
final class NestedWalker {
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
      Type node, List<String> parentPath, int parentDef, int parentRep, ColumnReadStoreImpl store) {
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

  /** The levels and values of one leaf column for one row group. */
  static final class Leaf {
    final int[] rep;
    final int[] def;
    final int maxDef;
    final ParquetValues.ValueKind kind;
    final long[] longs;
    final double[] doubles;
    final Binary[] binaries;
    int pos;

    private Leaf(int n, int maxDef, ParquetValues.ValueKind kind) {
      this.rep = new int[n];
      this.def = new int[n];
      this.maxDef = maxDef;
      this.kind = kind;
      boolean binary =
          kind == ParquetValues.ValueKind.BYTES
              || kind == ParquetValues.ValueKind.DECIMAL_BYTES_LONG
              || kind == ParquetValues.ValueKind.DECIMAL_BYTES_WIDE
              || kind == ParquetValues.ValueKind.INT96_MICROS
              || kind == ParquetValues.ValueKind.INT96_NANOS
              || kind == ParquetValues.ValueKind.FLOAT16;
      boolean floating =
          kind == ParquetValues.ValueKind.FLOAT || kind == ParquetValues.ValueKind.DOUBLE;
      this.longs = binary || floating ? null : new long[n];
      this.doubles = floating ? new double[n] : null;
      this.binaries = binary ? new Binary[n] : null;
    }

    static Leaf load(ColumnReader reader, ColumnDescriptor desc, boolean int96Nanos) {
      int n = Math.toIntExact(reader.getTotalValueCount());
      Leaf leaf =
          new Leaf(
              n,
              desc.getMaxDefinitionLevel(),
              ParquetValues.kindOf(desc.getPrimitiveType(), int96Nanos));
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
        case UINT64 -> ParquetValues.feedUnsigned64(longs[pos], column, sums);
        case FLOAT, DOUBLE -> sums.addDouble(column, doubles[pos]);
        default -> ParquetValues.feedBinary(kind, binaries[pos], column, sums);
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
