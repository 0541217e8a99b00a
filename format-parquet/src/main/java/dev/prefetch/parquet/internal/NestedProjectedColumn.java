package dev.prefetch.parquet.internal;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.flat.ColumnAdapters;
import dev.prefetch.parquet.internal.flat.VectorArrayPool;
import dev.prefetch.parquet.internal.nested.Assembler;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ColumnReadStore;
import org.apache.parquet.column.page.PageReadStore;

/**
 * A nested column: an {@link Assembler} tree over parquet-hadoop's column readers of its leaves,
 * each leaf filling the buffer of its type's adapter.
 *
 * <p>Row positions: over a whole row group the readers stand on the rows already read, so {@link
 * #seek} reads and drops the rows up to the wanted one; over a page-filtered read parquet-hadoop's
 * readers yield exactly the rows of the range's intervals, in order, and there is nothing to skip.
 */
final class NestedProjectedColumn extends ProjectedColumn {

  /** Rows assembled and dropped at a time when skipping. */
  private static final int SKIP_BATCH_ROWS = 4096;

  private final ColumnNode node;
  private final Assembler assembler;
  private final List<Assembler.LeafAssembler<?>> leaves = new ArrayList<>();

  /** Whether the readers see every row of the row group, so that rows are skipped by reading. */
  private boolean skipByReading;

  /** Next row (within the row group) the readers stand on, when skipping by reading. */
  private long cursor;

  NestedProjectedColumn(ColumnNode node) {
    this.node = node;
    this.assembler = assemblerOf(node);
    assembler.collectLeaves(leaves);
  }

  /** The assembler tree of a node; nested leaves are never pooled, their vectors are collected. */
  private static Assembler assemblerOf(ColumnNode node) {
    if (node instanceof ColumnNode.Leaf leaf) {
      return Assembler.leaf(
          leaf.nullDef(),
          leaf.descriptor(),
          ColumnAdapters.forColumn(leaf.primitiveType(), leaf.type(), VectorArrayPool.none()));
    }
    if (node instanceof ColumnNode.Struct struct) {
      List<Assembler> children = new ArrayList<>();
      for (ColumnNode child : struct.children()) {
        children.add(assemblerOf(child));
      }
      return Assembler.struct(struct.type(), struct.nullDef(), children);
    }
    if (node instanceof ColumnNode.ListNode list) {
      return Assembler.list(
          list.type(),
          list.nullDef(),
          list.elementDef(),
          list.repLevel(),
          List.of(assemblerOf(list.element())));
    }
    ColumnNode.MapNode map = (ColumnNode.MapNode) node;
    return Assembler.list(
        map.type(),
        map.nullDef(),
        map.elementDef(),
        map.repLevel(),
        List.of(assemblerOf(map.key()), assemblerOf(map.value())));
  }

  @Override
  String name() {
    return node.name();
  }

  @Override
  void bind(ColumnReadStore store, PageReadStore pages, boolean filtered) {
    for (Assembler.LeafAssembler<?> leaf : leaves) {
      leaf.setReader(store.getColumnReader(leaf.descriptor()));
    }
    skipByReading = !filtered;
    cursor = 0;
  }

  @Override
  void seek(long row) {
    if (!skipByReading) {
      return;
    }
    // Rare (files without offset indexes): assemble and drop, a batch at a time.
    while (cursor < row) {
      read((int) Math.min(row - cursor, SKIP_BATCH_ROWS));
    }
  }

  @Override
  ColumnVector read(int rows) {
    for (int i = 0; i < rows; i++) {
      assembler.readSlot();
    }
    cursor += rows;
    return assembler.finish();
  }
}
