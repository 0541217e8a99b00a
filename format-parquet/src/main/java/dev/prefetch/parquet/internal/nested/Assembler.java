package dev.prefetch.parquet.internal.nested;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.StructVector;
import dev.prefetch.parquet.internal.flat.ColumnAdapter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;

/**
 * Builds a nested column from the repetition and definition levels of its leaves.
 *
 * <p>Each {@link LeafAssembler} is a cursor on its leaf's entries (their levels), and decodes the
 * leaf's values from its pages into the buffer of the same {@link ColumnAdapter} a flat column of
 * its type reads through. An assembler reads one <em>slot</em> (one value of its node) at a time:
 * it looks at the definition level of its first leaf to tell a null, an empty list or a present
 * value apart, then lets its children read their slots; a list reads elements while its first
 * leaf's next entry repeats at the list's level. A slot that is absent (null, or an empty list)
 * holds exactly one entry on every leaf below it, which {@link #skipEntries} consumes. A null
 * struct appends a placeholder to each child so that children keep the struct's size.
 *
 * <p>Confined to the thread of one range reader; leaves are bound to new pages at every row group.
 */
public abstract class Assembler {

  final int nullDef;
  boolean[] nulls;
  int size;

  Assembler(int nullDef) {
    this.nullDef = nullDef;
  }

  /** A leaf: its column and the adapter its values go through. */
  public static LeafAssembler<?> leaf(
      int nullDef, ColumnDescriptor descriptor, ColumnAdapter<?> adapter) {
    return new LeafAssembler<>(nullDef, descriptor, adapter);
  }

  /** A struct of {@code children}, one per field. */
  public static Assembler struct(DataType type, int nullDef, List<Assembler> children) {
    return new StructAssembler(type, nullDef, List.copyOf(children));
  }

  /**
   * A list ({@code children}: the element) or a map ({@code children}: key and value), whose
   * elements exist at definition level {@code elementDef} and repeat at {@code repLevel}.
   */
  public static Assembler list(
      DataType type, int nullDef, int elementDef, int repLevel, List<Assembler> children) {
    return new ListAssembler(type, nullDef, elementDef, repLevel, List.copyOf(children));
  }

  /** The leaf assemblers below, in leaf order. */
  public abstract void collectLeaves(List<LeafAssembler<?>> out);

  /** The first leaf below, whose levels decide this node's shape. */
  abstract LeafAssembler<?> first();

  /** Reads one slot; every ancestor of this node is present. */
  public abstract void readSlot();

  /** Appends a null without consuming entries. */
  abstract void appendNull();

  /** Consumes the single entry an absent slot holds on every leaf below. */
  abstract void skipEntries();

  /** The vector of the slots read since the last call. */
  public abstract ColumnVector finish();

  final void markNull() {
    if (nulls == null) {
      nulls = new boolean[Math.max(16, size + 1)];
    } else if (nulls.length <= size) {
      nulls = Arrays.copyOf(nulls, Growth.grow(nulls.length, size + 1));
    }
    nulls[size] = true;
  }

  final boolean[] takeNulls(int count) {
    boolean[] taken = nulls;
    nulls = null;
    if (taken != null && taken.length < count) {
      taken = Arrays.copyOf(taken, count);
    }
    return taken;
  }

  /** A node with children (a struct, a list or a map): what both kinds do with their children. */
  abstract static class Branch extends Assembler {
    final DataType type;
    final List<Assembler> children;

    Branch(DataType type, int nullDef, List<Assembler> children) {
      super(nullDef);
      this.type = type;
      this.children = children;
    }

    @Override
    public final void collectLeaves(List<LeafAssembler<?>> out) {
      for (Assembler child : children) {
        child.collectLeaves(out);
      }
    }

    @Override
    final LeafAssembler<?> first() {
      return children.get(0).first();
    }

    @Override
    final void skipEntries() {
      for (Assembler child : children) {
        child.skipEntries();
      }
    }

    /**
     * Whether a slot at definition level {@code def} is null; if so, it is appended as a null and
     * its entry consumed.
     */
    final boolean readNull(int def) {
      if (nullDef >= 0 && def < nullDef) {
        appendNull();
        skipEntries();
        return true;
      }
      return false;
    }

    /** Lets every child read one slot. */
    final void readChildSlots() {
      for (Assembler child : children) {
        child.readSlot();
      }
    }
  }

  /** A struct: one child per field. */
  static final class StructAssembler extends Branch {

    StructAssembler(DataType type, int nullDef, List<Assembler> children) {
      super(type, nullDef, children);
    }

    @Override
    public void readSlot() {
      if (readNull(first().definitionLevel())) {
        return;
      }
      readChildSlots();
      size++;
    }

    @Override
    void appendNull() {
      markNull();
      for (Assembler child : children) {
        child.appendNull();
      }
      size++;
    }

    @Override
    public ColumnVector finish() {
      List<ColumnVector> vectors = new ArrayList<>(children.size());
      for (Assembler child : children) {
        vectors.add(child.finish());
      }
      int n = size;
      size = 0;
      return new StructVector(type, n, vectors, takeNulls(n));
    }
  }

  /**
   * A list (one child: the element) or a map (two children: key and value); both are offsets into
   * children read entry by entry.
   */
  static final class ListAssembler extends Branch {
    private final int elementDef;
    private final int repLevel;
    private int[] offsets = new int[17];
    private int elements;

    ListAssembler(
        DataType type, int nullDef, int elementDef, int repLevel, List<Assembler> children) {
      super(type, nullDef, children);
      this.elementDef = elementDef;
      this.repLevel = repLevel;
    }

    @Override
    public void readSlot() {
      int def = first().definitionLevel();
      if (readNull(def)) {
        return;
      }
      if (def >= elementDef) {
        LeafAssembler<?> first = first();
        do {
          readChildSlots();
          elements++;
        } while (first.repetitionLevel() == repLevel);
      } else {
        skipEntries(); // an empty list
      }
      endSlot();
    }

    private void endSlot() {
      size++;
      if (offsets.length <= size) {
        offsets = Arrays.copyOf(offsets, Growth.grow(offsets.length, size + 1));
      }
      offsets[size] = elements;
    }

    @Override
    void appendNull() {
      markNull();
      endSlot();
    }

    @Override
    public ColumnVector finish() {
      int n = size;
      int[] out = offsets;
      offsets = new int[17];
      size = 0;
      elements = 0;
      boolean[] nullMask = takeNulls(n);
      if (type.kind() == DataType.Kind.MAP) {
        return new MapVector(
            type, n, out, children.get(0).finish(), children.get(1).finish(), nullMask);
      }
      return new ListVector(type, n, out, children.get(0).finish(), nullMask);
    }
  }
}
