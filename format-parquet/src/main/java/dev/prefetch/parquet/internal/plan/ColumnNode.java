package dev.prefetch.parquet.internal.plan;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * A projected column (or a part of one) with the Parquet levels that decide its shape.
 *
 * <p>{@code nullDef} is the definition level below which the node is null, or -1 when it is never
 * null (required, or its nullability is already expressed by its parent). For a list or a map,
 * {@code elementDef} is the definition level at which an element (entry) exists and {@code
 * repLevel} the repetition level of a new element of this list.
 */
public sealed interface ColumnNode {

  String name();

  DataType type();

  int nullDef();

  /** The field this node is inside its parent. */
  default Field field() {
    return new Field(name(), type(), nullDef() >= 0);
  }

  /** A primitive column. */
  record Leaf(String name, DataType type, int nullDef, ColumnDescriptor descriptor)
      implements ColumnNode {
    public PrimitiveType primitiveType() {
      return descriptor.getPrimitiveType();
    }

    /**
     * The field, with the file's own type where the batch type widens it ({@link Field#FILE_TYPE}).
     */
    @Override
    public Field field() {
      Field field = ColumnNode.super.field();
      LogicalTypeAnnotation logical = primitiveType().getLogicalTypeAnnotation();
      if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer
          && !integer.isSigned()) {
        return field.withMetadata(Field.FILE_TYPE, "uint" + integer.getBitWidth());
      }
      if (logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation) {
        return field.withMetadata(Field.FILE_TYPE, "float16");
      }
      return field;
    }
  }

  /** A group without list or map meaning. */
  record Struct(String name, DataType type, int nullDef, List<ColumnNode> children)
      implements ColumnNode {
    public Struct {
      children = List.copyOf(children);
    }
  }

  /** A LIST (any of its layouts) or an unannotated repeated field. */
  record ListNode(
      String name, DataType type, int nullDef, int elementDef, int repLevel, ColumnNode element)
      implements ColumnNode {}

  /** A MAP of key-value entries. */
  record MapNode(
      String name,
      DataType type,
      int nullDef,
      int elementDef,
      int repLevel,
      ColumnNode key,
      ColumnNode value)
      implements ColumnNode {}
}
