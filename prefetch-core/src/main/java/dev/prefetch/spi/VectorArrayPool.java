package dev.prefetch.spi;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.ShortVector;
import java.lang.reflect.Array;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;

/**
 * The arrays of one column's vectors that consumers released, handed out again for the column's
 * next batches: value arrays, null masks, and the data and offsets of binary vectors (see {@link
 * dev.prefetch.batch.RecordBatch#release()}).
 *
 * <p>Ownership: an array taken here belongs to the vector it is built into, and comes back only
 * through {@link #recycle} of a released batch, whose consumer promised to read it no more. A
 * column mostly builds the same kind of vector, so each pool holds one array type (a string column
 * read as dictionary ids keeps int arrays beside its byte arrays); an array too short for a request
 * is dropped for the garbage collector.
 *
 * <p>Size: a pool keeps at most {@code maxFree} arrays of each kind, which should be the most
 * batches of the column that can be between the producer and the consumer (its queue's capacity):
 * the consumer releases batches in bursts while the producer waits for room in its queue, and every
 * array the pool drops then is allocated again when the producer goes on. The pool never holds more
 * than the queue held a moment before, which its byte budget already allowed.
 *
 * <p>Thread-safe: the consumer recycles while the producer takes. Every method holds the lock for a
 * deque operation only, and never blocks otherwise.
 */
public final class VectorArrayPool {

  /** Largest array a JVM reliably allocates. */
  private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  /** The fewest arrays of a kind a pool keeps, whatever its queue. */
  private static final int MIN_FREE = 16;

  private final int maxFree;

  /** The value array of each primitive vector class, looked up once per recycled vector. */
  private static final Map<Class<?>, Function<ColumnVector, Object>> VALUE_ARRAYS =
      Map.of(
          LongVector.class, v -> ((LongVector) v).values(),
          IntVector.class, v -> ((IntVector) v).values(),
          DoubleVector.class, v -> ((DoubleVector) v).values(),
          FloatVector.class, v -> ((FloatVector) v).values(),
          BooleanVector.class, v -> ((BooleanVector) v).values(),
          ShortVector.class, v -> ((ShortVector) v).values(),
          ByteVector.class, v -> ((ByteVector) v).values(),
          DictionaryVector.class, v -> ((DictionaryVector) v).ids(),
          DecimalVector.class, VectorArrayPool::unscaledLongs);

  /** Value arrays (one primitive array type per column), data and offsets of binary vectors. */
  private final ArrayDeque<Object> values = new ArrayDeque<>();

  private final ArrayDeque<boolean[]> masks = new ArrayDeque<>();
  private final ArrayDeque<byte[]> bytes = new ArrayDeque<>();
  private final ArrayDeque<int[]> offsets = new ArrayDeque<>();

  /**
   * A pool for the batches of a column that go through a queue of {@code queueCapacity} batches: it
   * keeps that many arrays of each kind (at least {@value #MIN_FREE}).
   */
  public VectorArrayPool(int queueCapacity) {
    this.maxFree = Math.max(MIN_FREE, queueCapacity);
  }

  /** A pool that nothing is recycled into: every request allocates. */
  public static VectorArrayPool none() {
    return new VectorArrayPool(0);
  }

  /**
   * A released value array of {@code type} (a primitive array class) and at least {@code length}
   * slots, else a new one; contents unspecified.
   */
  public <A> A values(Class<A> type, int length) {
    Object found = take(values);
    return type.isInstance(found) && Array.getLength(found) >= length
        ? type.cast(found)
        : type.cast(Array.newInstance(type.getComponentType(), length));
  }

  /** A null mask whose first {@code length} entries are false. */
  public boolean[] mask(int length) {
    boolean[] mask = take(masks);
    if (mask == null || mask.length < length) {
      return new boolean[length];
    }
    Arrays.fill(mask, 0, length, false);
    return mask;
  }

  /**
   * The data array of a binary vector, of at least {@code length} bytes, contents unspecified. A
   * new one gets an eighth more, so that it still serves when it comes back for a later batch of
   * somewhat longer values, rather than being dropped for another new one.
   */
  public byte[] binaryData(int length) {
    byte[] data = take(bytes);
    return data != null && data.length >= length
        ? data
        : new byte[(int) Math.min(MAX_ARRAY_LENGTH, length + (long) length / 8)];
  }

  /** The offsets of a binary vector: at least {@code length} entries, contents unspecified. */
  public int[] binaryOffsets(int length) {
    int[] found = take(offsets);
    return found != null && found.length >= length ? found : new int[length];
  }

  /** Keeps the arrays of {@code vector}, a released vector this column built. */
  public void recycle(ColumnVector vector) {
    give(masks, vector.nullMask());
    if (vector instanceof BinaryVector v) {
      give(bytes, v.data());
      give(offsets, v.offsets());
    } else {
      Function<ColumnVector, Object> array = VALUE_ARRAYS.get(vector.getClass());
      if (array != null) {
        give(values, array.apply(vector));
      }
    }
    // Byte-backed decimals and nested vectors are not pooled: they are garbage collected as
    // before. A dictionary vector gives back its ids only: its dictionary is shared by the chunk's
    // batches.
  }

  /** A long-backed decimal's unscaled values (decimals up to 18 digits), else null. */
  private static Object unscaledLongs(ColumnVector vector) {
    DecimalVector decimal = (DecimalVector) vector;
    return decimal.isLongBacked() ? decimal.unscaledLongs() : null;
  }

  /** Keeps a value array that no vector was built over (a batch that changed its layout). */
  public void recycleUnused(Object values) {
    give(this.values, values);
  }

  private <T> T take(ArrayDeque<T> pool) {
    synchronized (pool) {
      // The longest released: with a producer on another core, its lines are the likeliest to
      // have left the consumer's cache, so writing them costs no snoop of the consumer's core.
      return pool.pollFirst();
    }
  }

  private <T> void give(ArrayDeque<T> pool, T array) {
    if (array == null) {
      return;
    }
    synchronized (pool) {
      if (pool.size() < maxFree) {
        pool.addLast(array);
      }
    }
  }
}
