package dev.prefetch.parquet.internal.plan;

import dev.prefetch.DataFile;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The projected columns of a file: one {@link ColumnNode} tree per selected top-level field, and
 * the leaf columns to read. Built once per plan; immutable.
 *
 * <p>Group layouts follow the Parquet format's rules for lists and maps, including the legacy ones:
 * a LIST group whose repeated child is a primitive, a group of several fields, or a group named
 * {@code array} or {@code <list>_tuple} has that child as its (required) element; otherwise the
 * repeated group's single field is the element. A repeated field outside a LIST or MAP group is a
 * required list of required elements.
 */
public final class Projection {

  private static final int MAX_LISTED_COLUMNS = 50;

  private final List<ColumnNode> columns;
  private final List<ColumnDescriptor> leaves;
  private final Schema schema;

  private Projection(List<ColumnNode> columns, List<ColumnDescriptor> leaves) {
    this.columns = List.copyOf(columns);
    this.leaves = List.copyOf(leaves);
    List<Field> fields = new ArrayList<>();
    for (ColumnNode column : columns) {
      fields.add(column.field());
    }
    this.schema = new Schema(fields);
  }

  /** The top-level projected columns, in the order the batches carry them. */
  public List<ColumnNode> columns() {
    return columns;
  }

  /** Every leaf column read, in projection order. */
  public List<ColumnDescriptor> leaves() {
    return leaves;
  }

  public Schema schema() {
    return schema;
  }

  /**
   * Projects {@code names} (top-level names or dotted paths through groups; empty for every
   * top-level field) of {@code fileSchema}.
   *
   * @throws IllegalArgumentException for an unknown column, a path into a list or map, or a column
   *     selected twice; the message names the file
   */
  public static Projection of(DataFile file, MessageType fileSchema, List<String> names) {
    return of(file, fileSchema, names, DataType.TimeUnit.MICROS);
  }

  /** As {@link #of(DataFile, MessageType, List)}, with INT96 timestamps in {@code int96Unit}. */
  public static Projection of(
      DataFile file, MessageType fileSchema, List<String> names, DataType.TimeUnit int96Unit) {
    Mapper mapper = new Mapper(fileSchema, int96Unit);
    List<ColumnNode> columns = new ArrayList<>();
    if (names.isEmpty()) {
      for (Type field : fileSchema.getFields()) {
        columns.add(mapper.convert(field, new String[] {field.getName()}, field.getName(), 0));
      }
    } else {
      for (String name : names) {
        String[] path = resolve(file, fileSchema, name);
        Type type = fileSchema.getType(path);
        columns.add(mapper.convert(type, path, name, 0));
      }
    }
    List<ColumnDescriptor> leaves = new ArrayList<>();
    Set<List<String>> seen = new HashSet<>();
    for (ColumnNode column : columns) {
      collectLeaves(column, leaves);
    }
    for (ColumnDescriptor leaf : leaves) {
      if (!seen.add(Arrays.asList(leaf.getPath()))) {
        throw new IllegalArgumentException(
            "Column '"
                + String.join(".", leaf.getPath())
                + "' of "
                + file
                + " is selected more than once (directly or through a parent): "
                + names);
      }
    }
    return new Projection(columns, leaves);
  }

  private static void collectLeaves(ColumnNode node, List<ColumnDescriptor> out) {
    if (node instanceof ColumnNode.Leaf leaf) {
      out.add(leaf.descriptor());
    } else if (node instanceof ColumnNode.Struct struct) {
      for (ColumnNode child : struct.children()) {
        collectLeaves(child, out);
      }
    } else if (node instanceof ColumnNode.ListNode list) {
      collectLeaves(list.element(), out);
    } else {
      ColumnNode.MapNode map = (ColumnNode.MapNode) node;
      collectLeaves(map.key(), out);
      collectLeaves(map.value(), out);
    }
  }

  /** The path of a projected name: an exact top-level name first, else a dotted path. */
  private static String[] resolve(DataFile file, MessageType schema, String name) {
    if (schema.containsField(name)) {
      return new String[] {name};
    }
    String[] parts = name.split("\\.", -1);
    GroupType current = schema;
    for (int i = 0; i < parts.length; i++) {
      if (!current.containsField(parts[i])) {
        throw unknown(file, schema, name);
      }
      Type type = current.getType(parts[i]);
      if (i == parts.length - 1) {
        break;
      }
      if (type.isPrimitive()) {
        throw unknown(file, schema, name);
      }
      LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
      if (type.isRepetition(Type.Repetition.REPEATED)
          || logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation
          || logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
          || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
        throw new IllegalArgumentException(
            "Cannot select '"
                + name
                + "' of "
                + file
                + ": '"
                + String.join(".", Arrays.copyOf(parts, i + 1))
                + "' is a list or map; select it whole");
      }
      current = type.asGroupType();
    }
    return parts;
  }

  private static IllegalArgumentException unknown(DataFile file, MessageType schema, String name) {
    List<String> available = new ArrayList<>();
    for (Type field : schema.getFields()) {
      available.add(field.getName());
    }
    for (String[] path : schema.getPaths()) {
      if (path.length > 1 && available.size() < MAX_LISTED_COLUMNS) {
        available.add(String.join(".", path));
      }
    }
    return new IllegalArgumentException(
        "Unknown column '" + name + "' in " + file + "; available columns: " + available);
  }

  /** Converts Parquet types to nodes, with the file schema at hand for levels. */
  private static final class Mapper {
    private final MessageType schema;
    private final DataType.TimeUnit int96Unit;

    Mapper(MessageType schema, DataType.TimeUnit int96Unit) {
      this.schema = schema;
      this.int96Unit = int96Unit;
    }

    /**
     * @param contextDef definition level at which the parent is present; a node is nullable only
     *     when its own definition level is higher
     */
    ColumnNode convert(Type type, String[] path, String name, int contextDef) {
      int def = schema.getMaxDefinitionLevel(path);
      if (type.isRepetition(Type.Repetition.REPEATED)) {
        int rep = schema.getMaxRepetitionLevel(path);
        ColumnNode element = present(type, path, "element", -1, def);
        return new ColumnNode.ListNode(name, DataType.list(element.field()), -1, def, rep, element);
      }
      return present(type, path, name, def > contextDef ? def : -1, def);
    }

    /** {@code type} seen as a non-repeated value present at definition level {@code def}. */
    ColumnNode present(Type type, String[] path, String name, int nullDef, int def) {
      if (type.isPrimitive()) {
        ColumnDescriptor descriptor = schema.getColumnDescription(path);
        return new ColumnNode.Leaf(
            name, LeafTypes.typeOf(type.asPrimitiveType(), int96Unit), nullDef, descriptor);
      }
      GroupType group = type.asGroupType();
      LogicalTypeAnnotation logical = group.getLogicalTypeAnnotation();
      if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation
          && group.getFieldCount() == 1
          && group.getType(0).isRepetition(Type.Repetition.REPEATED)) {
        Type repeated = group.getType(0);
        String[] repeatedPath = append(path, repeated.getName());
        int repeatedDef = schema.getMaxDefinitionLevel(repeatedPath);
        int rep = schema.getMaxRepetitionLevel(repeatedPath);
        ColumnNode element;
        if (repeated.isPrimitive()
            || repeated.asGroupType().getFieldCount() > 1
            || repeated.getName().equals("array")
            || repeated.getName().equals(group.getName() + "_tuple")) {
          element = present(repeated, repeatedPath, "element", -1, repeatedDef);
        } else {
          Type inner = repeated.asGroupType().getType(0);
          element = convert(inner, append(repeatedPath, inner.getName()), "element", repeatedDef);
        }
        return new ColumnNode.ListNode(
            name, DataType.list(element.field()), nullDef, repeatedDef, rep, element);
      }
      if ((logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
              || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)
          && group.getFieldCount() == 1
          && !group.getType(0).isPrimitive()
          && group.getType(0).isRepetition(Type.Repetition.REPEATED)
          && group.getType(0).asGroupType().getFieldCount() == 2) {
        GroupType entry = group.getType(0).asGroupType();
        String[] entryPath = append(path, entry.getName());
        int entryDef = schema.getMaxDefinitionLevel(entryPath);
        int rep = schema.getMaxRepetitionLevel(entryPath);
        Type keyType = entry.getType(0);
        Type valueType = entry.getType(1);
        ColumnNode key = convert(keyType, append(entryPath, keyType.getName()), "key", entryDef);
        ColumnNode value =
            convert(valueType, append(entryPath, valueType.getName()), "value", entryDef);
        return new ColumnNode.MapNode(
            name, DataType.map(key.field(), value.field()), nullDef, entryDef, rep, key, value);
      }
      List<ColumnNode> children = new ArrayList<>();
      List<Field> fields = new ArrayList<>();
      for (Type child : group.getFields()) {
        ColumnNode node = convert(child, append(path, child.getName()), child.getName(), def);
        children.add(node);
        fields.add(node.field());
      }
      if (children.isEmpty()) {
        throw new IllegalArgumentException(
            "group '" + String.join(".", path) + "' has no fields and cannot be read");
      }
      return new ColumnNode.Struct(name, DataType.struct(fields), nullDef, children);
    }

    private static String[] append(String[] path, String name) {
      String[] out = Arrays.copyOf(path, path.length + 1);
      out[path.length] = name;
      return out;
    }
  }

  /**
   * {@code schema} with only the groups and leaves on the paths of {@code leaves}, in the file's
   * order; {@code schema} itself when that is all of it. Levels of the kept leaves are unchanged.
   */
  public static MessageType prune(MessageType schema, List<ColumnDescriptor> leaves) {
    Set<List<String>> paths = new HashSet<>();
    Set<List<String>> prefixes = new HashSet<>();
    for (ColumnDescriptor leaf : leaves) {
      String[] path = leaf.getPath();
      paths.add(Arrays.asList(path));
      for (int i = 1; i < path.length; i++) {
        prefixes.add(Arrays.asList(path).subList(0, i));
      }
    }
    List<Type> kept = pruneFields(schema, new ArrayList<>(), paths, prefixes);
    return kept == null ? schema : new MessageType(schema.getName(), kept);
  }

  /** The kept fields of {@code group}, or null when all of them are kept whole. */
  private static List<Type> pruneFields(
      GroupType group, List<String> prefix, Set<List<String>> paths, Set<List<String>> prefixes) {
    List<Type> kept = new ArrayList<>();
    boolean whole = true;
    for (Type field : group.getFields()) {
      prefix.add(field.getName());
      if (field.isPrimitive()) {
        if (paths.contains(prefix)) {
          kept.add(field);
        } else {
          whole = false;
        }
      } else if (prefixes.contains(prefix)) {
        List<Type> children = pruneFields(field.asGroupType(), prefix, paths, prefixes);
        if (children == null) {
          kept.add(field);
        } else {
          whole = false;
          if (!children.isEmpty()) {
            kept.add(field.asGroupType().withNewFields(children));
          }
        }
      } else {
        whole = false;
      }
      prefix.remove(prefix.size() - 1);
    }
    return whole ? null : kept;
  }
}
