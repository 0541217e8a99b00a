package dev.prefetch.arrow.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.StructVector;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Fills Arrow vectors from batch vectors, the way Arrow's own IPC loader does: for each vector it
 * takes the buffers of its layout (validity, offsets or type ids, data), the vector's own buffers
 * of the previous batch where nobody else holds them or else new ones from the allocator, copies
 * our arrays into them in bulk, and hands them to {@link FieldVector#loadFieldBuffers}, which takes
 * its own reference; nested vectors are then filled child by child. Every vector, map entries
 * included, gets a validity bitmap of its own, so {@code loadFieldBuffers} never allocates one.
 *
 * <p>The buffers themselves are written by {@link BufferWriter}, in bulk where the layouts agree.
 *
 * <p>Dictionary-encoded fields ({@link #fillEncoded}): the root's vector gets the indices and the
 * field's dictionary vector the values they point at. A {@link DictionaryVector}'s dictionary is
 * loaded only when it is not the instance loaded last into that dictionary vector (the batches of
 * one column chunk share theirs), so its bytes are copied once per chunk, not once per batch; its
 * buffers are then replaced, not overwritten, when a consumer still holds them (a C Data consumer
 * reading an earlier batch keeps the dictionary it was given). A plain vector in such a field
 * becomes its batch's own dictionary: its values (a null as an empty entry) with the indices 0 to
 * {@code count - 1}, as cheap as the plain copy and never a lookup.
 *
 * <p>Memory: every buffer reference this class takes is released by it before it returns (on
 * success the vector holds the only reference; on failure nobody does), so a failed fill leaks
 * nothing. Not thread-safe: one filler per converter.
 */
public final class VectorFiller {

  private final BufferWriter writer;

  /**
   * Per Arrow dictionary vector, the batch dictionary it holds; absent when it holds a plain
   * batch's values, nothing yet, or what a failed load left. Keeps that one dictionary per column
   * reachable until the next chunk's replaces it.
   */
  private final Map<FieldVector, BinaryVector> loaded = new IdentityHashMap<>();

  public VectorFiller(BufferAllocator allocator) {
    this.writer = new BufferWriter(allocator);
  }

  /**
   * Loads the first {@code count} values of {@code ours} into {@code vector}.
   *
   * @param extraNulls rows that are null besides the vector's own nulls (a null union's first
   *     alternative), or null
   */
  public void fill(
      FieldVector vector, ColumnPlan plan, ColumnVector ours, int count, boolean[] extraNulls) {
    load(vector, plan, ours, ours.nullMask(), extraNulls, count);
    children(vector, plan, ours, count);
  }

  /**
   * Loads the first {@code count} rows of {@code ours}, a {@link DictionaryVector} or a plain
   * string or binary vector, into a dictionary-encoded field: the indices into {@code indices}, the
   * values into {@code dictionary}.
   *
   * @param plan the field's {@code DICTIONARY} plan
   */
  public void fillEncoded(
      FieldVector indices, FieldVector dictionary, ColumnPlan plan, ColumnVector ours, int count) {
    ColumnPlan values = plan.children().get(0);
    if (ours instanceof DictionaryVector d) {
      BinaryVector entries = d.dictionary();
      if (loaded.get(dictionary) != entries) {
        loaded.remove(dictionary);
        load(dictionary, values, entries, null, null, entries.size());
        loaded.put(dictionary, entries);
      }
    } else {
      loaded.remove(dictionary);
      // Every entry is valid: a null row's empty span is an entry that no valid index points at.
      load(dictionary, values, ours, null, null, count);
    }
    load(indices, plan, ours, ours.nullMask(), null, count);
  }

  /** Loads the vector's own buffers (not its children's); {@code ours} is null for map entries. */
  private void load(
      FieldVector vector,
      ColumnPlan plan,
      ColumnVector ours,
      boolean[] nulls,
      boolean[] extraNulls,
      int count) {
    List<ArrowBuf> buffers = new ArrayList<>(3);
    writer.reuse(vector.getFieldBuffers());
    try {
      long nullCount = 0;
      if (plan.conversion() != ColumnPlan.Conversion.DENSE_UNION) {
        nullCount = writer.validity(nulls, extraNulls, count, buffers);
      }
      writer.ownBuffers(plan, ours, count, buffers);
      vector.loadFieldBuffers(new ArrowFieldNode(count, nullCount), buffers);
    } finally {
      writer.reuse(List.of());
      for (ArrowBuf b : buffers) {
        b.close();
      }
    }
  }

  private void children(FieldVector vector, ColumnPlan plan, ColumnVector ours, int count) {
    switch (plan.conversion()) {
      case LIST:
        {
          ListVector list = (ListVector) ours;
          fill(
              ((org.apache.arrow.vector.complex.ListVector) vector).getDataVector(),
              plan.children().get(0),
              list.elements(),
              list.offsets()[count],
              null);
          return;
        }
      case MAP:
        {
          MapVector map = (MapVector) ours;
          int entries = map.offsets()[count];
          FieldVector entryVector =
              ((org.apache.arrow.vector.complex.MapVector) vector).getDataVector();
          ColumnPlan entryPlan = plan.children().get(0);
          // The entries struct is never null: only its all-valid bitmap.
          load(entryVector, entryPlan, null, null, null, entries);
          List<FieldVector> kv = entryVector.getChildrenFromFields();
          fill(kv.get(0), entryPlan.children().get(0), map.keys(), entries, null);
          fill(kv.get(1), entryPlan.children().get(1), map.values(), entries, null);
          return;
        }
      case STRUCT:
        {
          StructVector struct = (StructVector) ours;
          List<FieldVector> fields = vector.getChildrenFromFields();
          for (int i = 0; i < fields.size(); i++) {
            fill(fields.get(i), plan.children().get(i), struct.child(i), count, null);
          }
          return;
        }
      case DENSE_UNION:
        {
          StructVector union = (StructVector) ours;
          List<FieldVector> alternatives = vector.getChildrenFromFields();
          for (int i = 0; i < alternatives.size(); i++) {
            // A null union points at its first alternative, which is null in that row.
            fill(
                alternatives.get(i),
                plan.children().get(i),
                union.child(i + 1),
                count,
                i == 0 ? union.nullMask() : null);
          }
          return;
        }
      default:
        return;
    }
  }
}
