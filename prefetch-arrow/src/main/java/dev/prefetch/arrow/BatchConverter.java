package dev.prefetch.arrow;

import dev.prefetch.arrow.internal.ColumnPlan;
import dev.prefetch.arrow.internal.VectorFiller;
import dev.prefetch.batch.RecordBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.DictionaryUtility;

/**
 * Converts batches of one schema into one reusable {@link VectorSchemaRoot}.
 *
 * <p>Lifecycle: each {@link #convert} replaces the root's buffers with the batch's values (the
 * buffers of the previous batch are released unless someone else, such as a C Data consumer, still
 * holds a reference to them); the batch itself is not changed and may be released by the caller
 * once {@code convert} returns. {@link #close()} closes the root and the dictionaries and releases
 * their memory. All memory is allocated from, and accounted to, the allocator given at creation.
 * One thread at a time.
 *
 * <p>Dictionaries: the converter is the {@link DictionaryProvider} of the root's dictionary-encoded
 * fields (see {@link ArrowMapping}): {@code lookup(field.getDictionary().getId())} is the
 * dictionary the root's indices point into after the last {@code convert}; the {@link Dictionary}
 * and its vector stay the same objects for the converter's life, their buffers change. Whatever
 * form a batch's column comes in, it converts into its field's form:
 *
 * <ul>
 *   <li>a {@link dev.prefetch.batch.DictionaryVector} into a dictionary-encoded field: its ids are
 *       the indices; its dictionary is copied into the Arrow dictionary only when it is not the
 *       instance the previous batch brought (the batches of one column chunk share one), so the
 *       dictionary's bytes are copied once per chunk;
 *   <li>a plain vector into a dictionary-encoded field: the batch's values become the dictionary
 *       (one entry per row, a null row's empty, not looked up or deduplicated), the indices run
 *       from 0; the same bytes as a plain copy and always the right values;
 *   <li>a dictionary vector into a plain field: expanded, each row's value gathered from the
 *       dictionary straight into the Arrow buffers.
 * </ul>
 */
public final class BatchConverter implements AutoCloseable, DictionaryProvider {

  private final ArrowMapping mapping;
  private final VectorSchemaRoot root;
  private final Map<Long, Dictionary> dictionaries;
  private final VectorFiller filler;

  BatchConverter(ArrowMapping mapping, BufferAllocator allocator) {
    this.mapping = Objects.requireNonNull(mapping, "mapping is null");
    Objects.requireNonNull(allocator, "allocator is null");
    Map<Long, Dictionary> dicts = new HashMap<>();
    List<Field> fields = new ArrayList<>();
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (Field field : mapping.arrowSchema().getFields()) {
        // The root holds a dictionary-encoded field's indices; Arrow creates its dictionary vector.
        Field inMemory = DictionaryUtility.toMemoryFormat(field, allocator, dicts);
        fields.add(inMemory);
        vectors.add(inMemory.createVector(allocator));
      }
    } catch (RuntimeException e) {
      // Empty vectors hold no memory yet, but close what exists all the same.
      vectors.forEach(FieldVector::close);
      dicts.values().forEach(d -> d.getVector().close());
      throw e;
    }
    this.root = new VectorSchemaRoot(fields, vectors, 0);
    this.dictionaries = Map.copyOf(dicts);
    this.filler = new VectorFiller(allocator);
  }

  /** The root every {@link #convert} fills. */
  public VectorSchemaRoot root() {
    return root;
  }

  /** The mapping of this converter's columns. */
  public ArrowMapping mapping() {
    return mapping;
  }

  /**
   * Fills the root (and the dictionaries of its dictionary-encoded fields) with {@code batch}'s
   * rows and returns it.
   *
   * @throws IllegalArgumentException when the batch's schema is not the mapping's
   */
  public VectorSchemaRoot convert(RecordBatch batch) {
    fill(root, this, mapping, filler, batch);
    return root;
  }

  /** The dictionary with id {@code id} (a field's {@code getDictionary().getId()}), or null. */
  @Override
  public Dictionary lookup(long id) {
    return dictionaries.get(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return dictionaries.keySet();
  }

  /** Fills {@code root}, whose dictionary-encoded fields' dictionaries {@code provider} holds. */
  static void fill(
      VectorSchemaRoot root,
      DictionaryProvider provider,
      ArrowMapping mapping,
      VectorFiller filler,
      RecordBatch batch) {
    if (batch.schema() != mapping.schema() && !batch.schema().equals(mapping.schema())) {
      throw new IllegalArgumentException(
          "batch of "
              + batch.file()
              + " has schema "
              + batch.schema()
              + ", not the converter's "
              + mapping.schema());
    }
    List<ColumnPlan> plans = mapping.plans();
    List<FieldVector> vectors = root.getFieldVectors();
    int rows = batch.rowCount();
    for (int i = 0; i < plans.size(); i++) {
      ColumnPlan plan = plans.get(i);
      if (plan.conversion() == ColumnPlan.Conversion.DICTIONARY) {
        long id = plan.arrowField().getDictionary().getId();
        FieldVector dictionary = provider.lookup(id).getVector();
        filler.fillEncoded(vectors.get(i), dictionary, plan, batch.column(i), rows);
      } else {
        filler.fill(vectors.get(i), plan, batch.column(i), rows, null);
      }
    }
    root.setRowCount(rows);
  }

  /**
   * Puts the dictionaries into {@code into} and returns the root: both are the caller's from now
   * on, and this converter is not used again.
   */
  VectorSchemaRoot handOver(DictionaryProvider.MapDictionaryProvider into) {
    for (Dictionary d : dictionaries.values()) {
      into.put(d);
    }
    return root;
  }

  @Override
  public void close() {
    try {
      root.close();
    } finally {
      for (Dictionary d : dictionaries.values()) {
        d.getVector().close();
      }
    }
  }
}
