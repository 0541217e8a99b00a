package dev.prefetch.batch;

import java.util.Objects;
import java.util.Set;

/**
 * The values of one column for the rows of a {@link RecordBatch}.
 *
 * <p>Lifecycle: a format allocates the primitive arrays, fills them, and hands them to a vector's
 * constructor, which takes ownership of them (no copy). From then on the vector is read-only:
 * nobody writes its arrays again until its batch is {@linkplain RecordBatch#release() released}, so
 * a vector published through the runtime's queues (a happens-before edge) is safe to read from any
 * thread, and a batch may be handed on to another thread without copying. Arrays may be longer than
 * {@link #size()}; only the first {@code size} entries are values.
 *
 * <p>Nulls: {@link #nullMask()} is either null (no value is null) or a {@code boolean[]} where
 * {@code true} marks a null. The value slot of a null holds an unspecified value.
 *
 * <p>Release checks: with the system property {@value #CHECK_RELEASED_PROPERTY} set to {@code true}
 * when this class is loaded, every value accessor of a vector whose batch was released throws an
 * {@link IllegalStateException}, so a consumer that keeps reading a vector after {@link
 * RecordBatch#release()} (whose arrays a later batch overwrites) fails at the first read instead of
 * seeing another batch's rows. Off by default: then the check is a constant the JIT removes. An
 * array taken from a vector before the release is not guarded.
 *
 * <p>{@link #getObject(int)} boxes; it is meant for tests, tools and row-at-a-time callers. Scan
 * operators should read the typed arrays of the concrete vector class.
 */
public abstract sealed class ColumnVector
    permits FixedWidthVector, OffsetVector, DecimalVector, DictionaryVector, StructVector {

  /** The system property that turns the release checks on (see the class doc). */
  public static final String CHECK_RELEASED_PROPERTY = "dev.prefetch.checkReleasedBatches";

  private static final boolean CHECK_RELEASED = Boolean.getBoolean(CHECK_RELEASED_PROPERTY);

  private final DataType type;
  private final int size;
  private final boolean[] nulls;

  /**
   * Set by the batch's release when the checks are on. Written and read by the consumer that owns
   * the batch; a vector handed to another thread after its release is misuse either way.
   */
  private boolean released;

  /**
   * @param type the values' type
   * @param kinds the kinds of type the concrete class holds
   * @param size number of values
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  protected ColumnVector(DataType type, Set<DataType.Kind> kinds, int size, boolean[] nulls) {
    this.type = Objects.requireNonNull(type, "type is null");
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative: " + size);
    }
    if (nulls != null && nulls.length < size) {
      throw new IllegalArgumentException(
          "null mask has " + nulls.length + " entries, fewer than size " + size);
    }
    if (!kinds.contains(type.kind())) {
      throw new IllegalArgumentException(getClass().getSimpleName() + " cannot hold " + type);
    }
    this.size = size;
    this.nulls = nulls;
  }

  public final DataType type() {
    return type;
  }

  /** Number of values (rows, or elements for a vector inside a list or map). */
  public final int size() {
    return size;
  }

  public final boolean isNull(int index) {
    checkReadable();
    return nulls != null && nulls[index];
  }

  /** Whether any value may be null; false guarantees none is. */
  public final boolean mayHaveNulls() {
    return nulls != null;
  }

  /** The null mask ({@code true} = null), or null when no value is null. Do not modify. */
  public final boolean[] nullMask() {
    checkReadable();
    return nulls;
  }

  /** The value at {@code index}, boxed, or null. See the class comment for the boxed types. */
  public abstract Object getObject(int index);

  /** Approximate heap bytes held by this vector's arrays, for memory budgets. */
  public abstract long sizeInBytes();

  /** Whether the release checks are on in this JVM. */
  public static boolean releaseChecksEnabled() {
    return CHECK_RELEASED;
  }

  /** Throws if the release checks are on and this vector's batch was released. */
  protected final void checkReadable() {
    if (CHECK_RELEASED && released) {
      throw new IllegalStateException(
          "a " + type + " vector of a released batch was read; its arrays may hold other rows");
    }
  }

  /** Marks this vector (and the vectors inside it) as belonging to a released batch. */
  void markReleased() {
    released = true;
  }

  protected final long nullMaskBytes() {
    return nulls == null ? 0 : nulls.length;
  }

  static int checkLength(String what, int arrayLength, int size) {
    if (arrayLength < size) {
      throw new IllegalArgumentException(
          what + " has " + arrayLength + " entries, fewer than size " + size);
    }
    return arrayLength;
  }

  /**
   * Checks that {@code offsets} has the {@code size + 1} entries of {@code size} spans and that the
   * last one does not pass {@code limit}, the number of entries the spans index ({@code what}).
   */
  static void checkOffsets(int[] offsets, int size, int limit, String what) {
    checkLength("offsets", offsets.length, size + 1);
    if (offsets[size] > limit) {
      throw new IllegalArgumentException(
          "last offset " + offsets[size] + " is past the " + what + " " + limit);
    }
  }
}
