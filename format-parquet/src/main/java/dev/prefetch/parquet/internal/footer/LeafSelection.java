package dev.prefetch.parquet.internal.footer;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * Which column chunks of a row group a projection decodes: a row group's chunks follow the schema's
 * leaf order, so a projection is a path per leaf position (null for a leaf to skip).
 */
final class LeafSelection {

  private LeafSelection() {}

  /**
   * Per leaf (chunk position), the path of a projected leaf, or null. Walks the schema elements
   * (depth-first, {@code num_children} per group) instead of asking the converted schema for its
   * columns, which costs a lookup per level per leaf on a schema of thousands of columns.
   */
  @SuppressWarnings("unchecked")
  static List<String>[] of(
      List<SchemaElement> schemaElements,
      int leafCount,
      Collection<ColumnPath> projection,
      String file) {
    Map<List<String>, ColumnPath> wanted = new HashMap<>();
    Set<String> names = new HashSet<>();
    for (ColumnPath path : projection) {
      String[] parts = path.toArray();
      wanted.put(List.of(parts), path);
      names.add(parts[parts.length - 1]);
    }
    List<String>[] selected = new List[leafCount];
    List<String> firstLeaf = null;
    int size = schemaElements.size();
    String[] prefix = new String[size];
    int[] remaining = new int[size];
    int depth = 0;
    remaining[0] = schemaElements.get(0).getNum_children();
    int leaf = 0;
    for (int i = 1; i < size && leaf < leafCount; i++) {
      while (depth > 0 && remaining[depth] <= 0) {
        depth--;
      }
      SchemaElement element = schemaElements.get(i);
      remaining[depth]--;
      if (!element.isSetType()) {
        prefix[depth] = element.getName();
        depth++;
        remaining[depth] = element.getNum_children();
        continue;
      }
      if (firstLeaf == null || names.contains(element.getName())) {
        String[] path = Arrays.copyOf(prefix, depth + 1);
        path[depth] = element.getName();
        List<String> list = List.of(path);
        if (firstLeaf == null) {
          firstLeaf = list;
        }
        if (wanted.remove(list) != null) {
          selected[leaf] = list;
        }
      }
      leaf++;
    }
    if (!wanted.isEmpty()) {
      throw new IllegalArgumentException(
          "column " + wanted.values().iterator().next().toDotString() + " is not in " + file);
    }
    if (projection.isEmpty() && firstLeaf != null) {
      selected[0] = firstLeaf; // a block needs one chunk: row counts and positions come from it
    }
    return selected;
  }
}
