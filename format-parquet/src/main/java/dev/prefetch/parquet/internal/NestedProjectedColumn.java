package dev.prefetch.parquet.internal;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.flat.ColumnAdapters;
import dev.prefetch.parquet.internal.nested.Assembler;
import dev.prefetch.parquet.internal.nested.LeafAssembler;
import dev.prefetch.parquet.internal.page.ChunkPages;
import dev.prefetch.parquet.internal.plan.ColumnNode;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.VectorArrayPool;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;

/**
 * A nested column: an {@link Assembler} tree over the pages of its leaves, each leaf decoding its
 * values into the buffer of its type's adapter. Every leaf seeks to the first row of each batch on
 * its own (its pages are its own).
 */
final class NestedProjectedColumn extends ProjectedColumn {

  private final ColumnNode node;
  private final ByteArrayPool pageArrays;
  private final Assembler assembler;
  private final List<LeafAssembler<?>> leaves = new ArrayList<>();

  NestedProjectedColumn(ColumnNode node, ByteArrayPool pageArrays) {
    this.node = node;
    this.pageArrays = pageArrays;
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
  void release() {
    for (LeafAssembler<?> leaf : leaves) {
      leaf.release();
    }
  }

  @Override
  void bind(PageReadStore rowGroup, BlockMetaData block) {
    for (LeafAssembler<?> leaf : leaves) {
      leaf.bind(
          new ChunkPages(leaf.descriptor(), rowGroup.getPageReader(leaf.descriptor()), pageArrays));
    }
  }

  @Override
  void seek(long row) {
    for (LeafAssembler<?> leaf : leaves) {
      leaf.seekRow(row);
    }
  }

  @Override
  ColumnVector read(int rows) {
    for (int i = 0; i < rows; i++) {
      assembler.readSlot();
    }
    return assembler.finish();
  }
}
