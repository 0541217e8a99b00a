package dev.prefetch.orc.internal;

import dev.prefetch.DataFile;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.orc.TypeDescription;

/**
 * The columns a read selects from an ORC file: the output schema, the ORC column ids to read, and
 * for each output column the path of child indexes that leads from the root struct's vector to it.
 *
 * <p>A name is first looked up as a top-level column; failing that, a dotted name {@code a.b.c}
 * walks struct fields. A nested column is output as a top-level field named by its full path, null
 * wherever any struct on its path is null. No names means every top-level column, in file order.
 */
final class Projection {

  private final TypeDescription fileSchema;
  private final Schema schema;
  private final int[][] paths;
  private final TypeDescription[] types;
  private final boolean[] include;
  private final boolean[] outputInclude;
  private final boolean[] topLevelRead;
  private final List<Integer> columnIds;
  private final boolean readsEverything;

  private Projection(
      TypeDescription fileSchema,
      Schema schema,
      int[][] paths,
      TypeDescription[] types,
      boolean[] include,
      boolean[] outputInclude,
      boolean[] topLevelRead,
      List<Integer> columnIds,
      boolean readsEverything) {
    this.readsEverything = readsEverything;
    this.outputInclude = outputInclude;
    this.fileSchema = fileSchema;
    this.schema = schema;
    this.paths = paths;
    this.types = types;
    this.include = include;
    this.topLevelRead = topLevelRead;
    this.columnIds = List.copyOf(columnIds);
  }

  /**
   * Resolves {@code names} against {@code fileSchema}.
   *
   * @throws IllegalArgumentException for a name the file lacks, naming the file and the columns it
   *     has
   */
  static Projection resolve(DataFile file, TypeDescription fileSchema, List<String> names) {
    return resolve(file, fileSchema, names, List.of());
  }

  /**
   * Like {@link #resolve(DataFile, TypeDescription, List)}, also reading (not outputting) the
   * columns {@code alsoRead} names that the file has (a predicate's columns, which orc-core's row
   * filter evaluates on the batch).
   */
  static Projection resolve(
      DataFile file, TypeDescription fileSchema, List<String> names, List<String> alsoRead) {
    if (fileSchema.getCategory() != TypeDescription.Category.STRUCT) {
      return nonStructRoot(file, fileSchema, names);
    }
    List<String> wanted = names;
    if (wanted.isEmpty()) {
      wanted = fileSchema.getFieldNames();
    }
    int count = wanted.size();
    int[][] paths = new int[count][];
    TypeDescription[] types = new TypeDescription[count];
    List<Field> fields = new ArrayList<>(count);
    boolean[] include = new boolean[fileSchema.getMaximumId() + 1];
    include[0] = true;
    boolean[] topLevelRead = new boolean[fileSchema.getChildren().size()];
    boolean[] wholeTopLevel = new boolean[topLevelRead.length];
    List<Integer> ids = new ArrayList<>(count);
    for (int c = 0; c < count; c++) {
      String name = wanted.get(c);
      int[] path = find(fileSchema, name);
      if (path == null) {
        throw new IllegalArgumentException(
            "Unknown column '"
                + name
                + "' in ORC file "
                + file
                + "; available columns: "
                + available(fileSchema));
      }
      TypeDescription type = fileSchema;
      for (int step : path) {
        type = type.getChildren().get(step);
        include[type.getId()] = true;
      }
      for (int id = type.getId(); id <= type.getMaximumId(); id++) {
        include[id] = true;
      }
      topLevelRead[path[0]] = true;
      wholeTopLevel[path[0]] |= path.length == 1;
      paths[c] = path;
      types[c] = type;
      ids.add(type.getId());
      fields.add(OrcTypes.toField(name, type));
    }
    boolean[] outputInclude = include.clone();
    for (String name : alsoRead) {
      int[] path = find(fileSchema, name);
      if (path != null) {
        TypeDescription top = fileSchema.getChildren().get(path[0]);
        for (int id = top.getId(); id <= top.getMaximumId(); id++) {
          include[id] = true;
        }
        topLevelRead[path[0]] = true;
      }
    }
    boolean everything = true;
    for (boolean whole : wholeTopLevel) {
      everything &= whole;
    }
    return new Projection(
        fileSchema,
        new Schema(fields),
        paths,
        types,
        include,
        outputInclude,
        topLevelRead,
        ids,
        everything);
  }

  /**
   * A root that is not a struct is one column, {@link OrcTypes#NON_STRUCT_ROOT_COLUMN}: orc-core
   * reads it into column 0 of a batch, so its path is {0}.
   */
  private static Projection nonStructRoot(DataFile file, TypeDescription root, List<String> names) {
    String name = OrcTypes.NON_STRUCT_ROOT_COLUMN;
    for (String wanted : names) {
      if (!wanted.equals(name)) {
        throw new IllegalArgumentException(
            "Unknown column '"
                + wanted
                + "' in ORC file "
                + file
                + " of root type "
                + root
                + "; available columns: ["
                + name
                + "]");
      }
    }
    if (names.size() > 1) {
      throw new IllegalArgumentException(
          "Column '" + name + "' of ORC file " + file + " is selected more than once: " + names);
    }
    boolean[] include = new boolean[root.getMaximumId() + 1];
    java.util.Arrays.fill(include, true);
    return new Projection(
        root,
        new Schema(List.of(OrcTypes.toField(name, root))),
        new int[][] {{0}},
        new TypeDescription[] {root},
        include,
        include.clone(),
        new boolean[] {true},
        List.of(root.getId()),
        true);
  }

  /** Whether the file's root type is a struct (else it is one column, read into column 0). */
  boolean structRoot() {
    return fileSchema.getCategory() == TypeDescription.Category.STRUCT;
  }

  /** Child indexes from the root to {@code name}, or null when there is no such column. */
  private static int[] find(TypeDescription root, String name) {
    int top = root.getFieldNames().indexOf(name);
    if (top >= 0) {
      return new int[] {top};
    }
    String[] parts = name.split("\\.", -1);
    if (parts.length < 2) {
      return null;
    }
    int[] path = new int[parts.length];
    TypeDescription type = root;
    for (int i = 0; i < parts.length; i++) {
      if (type.getCategory() != TypeDescription.Category.STRUCT) {
        return null;
      }
      int index = type.getFieldNames().indexOf(parts[i]);
      if (index < 0) {
        return null;
      }
      path[i] = index;
      type = type.getChildren().get(index);
    }
    return path;
  }

  private static List<String> available(TypeDescription root) {
    List<String> names = new ArrayList<>();
    addNames(root, "", names);
    return names;
  }

  private static void addNames(TypeDescription struct, String prefix, List<String> out) {
    List<String> names = struct.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      String name = prefix + names.get(i);
      out.add(name);
      TypeDescription child = struct.getChildren().get(i);
      if (child.getCategory() == TypeDescription.Category.STRUCT) {
        addNames(child, name + ".", out);
      }
    }
  }

  TypeDescription fileSchema() {
    return fileSchema;
  }

  Schema schema() {
    return schema;
  }

  int columnCount() {
    return paths.length;
  }

  /** Child indexes from the root struct to output column {@code column}. */
  int[] path(int column) {
    return paths[column];
  }

  /** The ORC type of output column {@code column}. */
  TypeDescription type(int column) {
    return types[column];
  }

  /** ORC's include array: which column ids to read. Do not modify. */
  boolean[] include() {
    return include;
  }

  /**
   * The column ids the output columns need (the structs on their paths, and each column's own
   * subtree), without the predicate's columns. Do not modify.
   */
  boolean[] outputInclude() {
    return outputInclude;
  }

  /**
   * The column ids of the structs on the path from the root to output column {@code column},
   * outermost first: none for a top-level column (the root struct's own nulls are not read, as
   * orc-core reads a row batch), none for the one column of a root that is not a struct.
   */
  int[] structIds(int column) {
    if (!structRoot()) {
      return new int[0];
    }
    int[] path = paths[column];
    int[] ids = new int[path.length - 1];
    TypeDescription type = fileSchema;
    for (int i = 0; i < path.length - 1; i++) {
      type = type.getChildren().get(path[i]);
      ids[i] = type.getId();
    }
    return ids;
  }

  /** Whether top-level column {@code index} is read (so needs a real vector in a batch). */
  boolean isTopLevelRead(int index) {
    return topLevelRead[index];
  }

  /** The ORC column ids of the output columns, for size estimates. */
  List<Integer> columnIds() {
    return columnIds;
  }

  /** Whether every top-level column is read whole. */
  boolean readsEverything() {
    return readsEverything;
  }
}
