package dev.prefetch.orc.internal;

import dev.prefetch.orc.internal.metadata.OrcChecks;
import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.orc.impl.IntegerReader;
import org.apache.orc.impl.RecordReaderImpl;
import org.apache.orc.impl.TreeReaderFactory;
import org.apache.orc.impl.reader.tree.BatchReader;
import org.apache.orc.impl.reader.tree.TypeReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a {@link LengthCheck} in front of every length stream of a record reader's column readers:
 * the element counts of lists and maps, the byte lengths of directly encoded strings, chars,
 * varchars and binaries.
 *
 * <p>orc-core builds those readers privately and creates their length readers afresh at each stripe
 * start, so the check is installed through reflection on their (non-final, protected) fields, after
 * each stripe start and before each batch ({@link CheckedRecordReader}); a field already holding a
 * check is left alone, so the walk costs a few field reads per column and batch. Where a field is
 * missing (a later orc-core), the walk installs nothing, logs that once and the read's metrics
 * count the reader ({@link #UNCHECKED_READERS}); the tests fail ({@code LengthGuardsTest}).
 *
 * <p>Stateless apart from the resolved fields; thread-safe.
 */
final class LengthGuards {

  /** Format counter: record readers whose length streams are not checked. */
  static final String UNCHECKED_READERS = "orcUncheckedLengthReaders";

  /** Bytes a list or map element takes in a column vector at least (its null flag, a value). */
  static final int MIN_ELEMENT_BYTES = 9;

  /** Elements one orc-core child vector can hold: one array's worth. */
  private static final long MAX_ELEMENTS = OrcChecks.MAX_ARRAY_BYTES;

  private static final Logger LOG = LoggerFactory.getLogger(LengthGuards.class);
  private static final AtomicBoolean LOGGED = new AtomicBoolean();

  private static final Field BATCH_READER = field(RecordReaderImpl.class, "reader");
  private static final Field STRUCT_FIELDS =
      field(TreeReaderFactory.StructTreeReader.class, "fields");
  private static final Field UNION_FIELDS =
      field(TreeReaderFactory.UnionTreeReader.class, "fields");
  private static final Field LIST_ELEMENT =
      field(TreeReaderFactory.ListTreeReader.class, "elementReader");
  private static final Field LIST_LENGTHS =
      field(TreeReaderFactory.ListTreeReader.class, "lengths");
  private static final Field MAP_KEY = field(TreeReaderFactory.MapTreeReader.class, "keyReader");
  private static final Field MAP_VALUE =
      field(TreeReaderFactory.MapTreeReader.class, "valueReader");
  private static final Field MAP_LENGTHS = field(TreeReaderFactory.MapTreeReader.class, "lengths");
  private static final Field STRING_READER =
      field(TreeReaderFactory.StringTreeReader.class, "reader");
  private static final Field STRING_LENGTHS =
      field(TreeReaderFactory.StringDirectTreeReader.class, "lengths");
  private static final Field BINARY_LENGTHS =
      field(TreeReaderFactory.BinaryTreeReader.class, "lengths");

  private LengthGuards() {}

  /** Whether every field the walk needs was found in this orc-core. */
  static boolean isAvailable() {
    return BATCH_READER != null
        && STRUCT_FIELDS != null
        && UNION_FIELDS != null
        && LIST_ELEMENT != null
        && LIST_LENGTHS != null
        && MAP_KEY != null
        && MAP_VALUE != null
        && MAP_LENGTHS != null
        && STRING_READER != null
        && STRING_LENGTHS != null
        && BINARY_LENGTHS != null;
  }

  /**
   * Checks the length streams of {@code reader}'s current stripe; false when this orc-core has not
   * every field the walk needs (logged once).
   *
   * @param maxBatchBytes the reader's memory bound for one batch's values
   * @param stripeValueBytes the most value bytes the stripe's data can decode to
   * @param where the file and stripe, for messages
   */
  static boolean install(
      RecordReaderImpl reader, long maxBatchBytes, long stripeValueBytes, String where) {
    if (!isAvailable()) {
      if (LOGGED.compareAndSet(false, true)) {
        LOG.warn(
            "ORC length streams are read unchecked: this orc-core's column readers lack a"
                + " field the check needs, so a corrupt length can make orc-core allocate an array"
                + " of any size; the read metrics count such readers as {}",
            UNCHECKED_READERS);
      }
      return false;
    }
    try {
      BatchReader batches = (BatchReader) BATCH_READER.get(reader);
      if (batches != null) {
        walk(batches.rootType, new Limits(maxBatchBytes, stripeValueBytes), where);
      }
      return true;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read orc-core's column readers", e);
    }
  }

  /**
   * What a batch's lengths are checked against: the most the stripe's data can hold (more is a
   * corrupt file) and what the read's memory budget allows one batch (more is refused as too large
   * for the budget).
   */
  private record Limits(long maxBatchBytes, long stripeValueBytes) {}

  private static void walk(TypeReader node, Limits limits, String where)
      throws IllegalAccessException {
    if (node == null) {
      return;
    }
    long budget = limits.maxBatchBytes();
    if (node instanceof TreeReaderFactory.StructTreeReader) {
      for (TypeReader child : (TypeReader[]) STRUCT_FIELDS.get(node)) {
        walk(child, limits, where);
      }
    } else if (node instanceof TreeReaderFactory.UnionTreeReader) {
      for (TypeReader child : (TypeReader[]) UNION_FIELDS.get(node)) {
        walk(child, limits, where);
      }
    } else if (node instanceof TreeReaderFactory.ListTreeReader) {
      // a child vector holds at most one array's worth of elements
      check(node, LIST_LENGTHS, MAX_ELEMENTS, budget / MIN_ELEMENT_BYTES, "elements", where);
      walk((TypeReader) LIST_ELEMENT.get(node), limits, where);
    } else if (node instanceof TreeReaderFactory.MapTreeReader) {
      check(node, MAP_LENGTHS, MAX_ELEMENTS, budget / (2 * MIN_ELEMENT_BYTES), "entries", where);
      walk((TypeReader) MAP_KEY.get(node), limits, where);
      walk((TypeReader) MAP_VALUE.get(node), limits, where);
    } else if (node instanceof TreeReaderFactory.StringTreeReader) {
      Object inner = STRING_READER.get(node);
      if (inner instanceof TreeReaderFactory.StringDirectTreeReader) {
        check(inner, STRING_LENGTHS, limits.stripeValueBytes(), budget, "bytes", where);
      }
    } else if (node instanceof TreeReaderFactory.StringDirectTreeReader) {
      check(node, STRING_LENGTHS, limits.stripeValueBytes(), budget, "bytes", where);
    } else if (node instanceof TreeReaderFactory.BinaryTreeReader) {
      check(node, BINARY_LENGTHS, limits.stripeValueBytes(), budget, "bytes", where);
    }
  }

  private static void check(
      Object owner, Field lengths, long fileLimit, long budgetLimit, String unit, String where)
      throws IllegalAccessException {
    Object current = lengths.get(owner);
    if (current instanceof IntegerReader plain && !(current instanceof LengthCheck)) {
      int column = ((TypeReader) owner).getColumnId();
      lengths.set(
          owner,
          new LengthCheck(
              plain,
              Math.min(fileLimit, OrcChecks.MAX_ARRAY_BYTES),
              budgetLimit,
              unit,
              where + ", column " + column));
    }
  }

  private static Field field(Class<?> owner, String name) {
    try {
      Field field = owner.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
