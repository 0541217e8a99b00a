package dev.prefetch.arrow.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.batch.StructVector;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.Float16;

/**
 * Writes the Arrow buffers of one vector (its validity bitmap, then the buffers of its layout) from
 * a batch vector, into the vector's own buffers of the previous batch where only it holds them, or
 * else into buffers newly allocated from the allocator; each is appended to the caller's list,
 * which releases it.
 *
 * <p>Bulk: primitive arrays of the same width go through a little-endian view of the buffer ({@code
 * LongBuffer.put(long[])} and the like, one memory copy on little-endian machines), byte arrays
 * through {@link ArrowBuf#setBytes}. Bitmaps are packed 64 values per word ({@link HeapBits});
 * decimals and unsigned 64-bit integers are stored straight into the buffer ({@link Decimals}).
 * Only what has no equal layout is converted value by value, into scratch arrays kept between calls
 * and then copied in bulk: narrowed unsigned integers, half floats, rebased offsets and a union's
 * type ids.
 *
 * <p>Dictionary vectors are written by {@link DictionaryBuffers}. Not thread-safe.
 */
final class BufferWriter {

  private final BufferAllocator allocator;
  private int[] intScratch = new int[0];
  private short[] shortScratch = new short[0];
  private byte[] byteScratch = new byte[0];
  private List<ArrowBuf> reusable = List.of();
  private final DictionaryBuffers dictionaries = new DictionaryBuffers(this);

  BufferWriter(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  /** The buffers of {@code plan}'s layout after the validity bitmap. */
  void ownBuffers(ColumnPlan plan, ColumnVector ours, int count, List<ArrowBuf> out) {
    switch (plan.conversion()) {
      case BOOL:
        bits(((BooleanVector) ours).values(), count, out);
        return;
      case BYTES_1:
        {
          ArrowBuf b = add(out, count);
          b.setBytes(0, ((ByteVector) ours).values(), 0, count);
          return;
        }
      case BYTES_2:
        view(add(out, 2L * count)).asShortBuffer().put(((ShortVector) ours).values(), 0, count);
        return;
      case BYTES_4:
        {
          ByteBuffer view = view(add(out, 4L * count));
          if (ours instanceof FloatVector f) {
            view.asFloatBuffer().put(f.values(), 0, count);
          } else {
            view.asIntBuffer().put(((IntVector) ours).values(), 0, count);
          }
          return;
        }
      case BYTES_8:
        {
          ByteBuffer view = view(add(out, 8L * count));
          if (ours instanceof DoubleVector d) {
            view.asDoubleBuffer().put(d.values(), 0, count);
          } else {
            view.asLongBuffer().put(((LongVector) ours).values(), 0, count);
          }
          return;
        }
      case UINT8:
        {
          short[] values = ((ShortVector) ours).values();
          byte[] narrow = bytes(count);
          for (int i = 0; i < count; i++) {
            narrow[i] = (byte) values[i];
          }
          add(out, count).setBytes(0, narrow, 0, count);
          return;
        }
      case UINT16:
        {
          int[] values = ((IntVector) ours).values();
          short[] narrow = shorts(count);
          for (int i = 0; i < count; i++) {
            narrow[i] = (short) values[i];
          }
          view(add(out, 2L * count)).asShortBuffer().put(narrow, 0, count);
          return;
        }
      case UINT32:
      case TIME32:
        {
          long[] values = ((LongVector) ours).values();
          int[] narrow = ints(count);
          for (int i = 0; i < count; i++) {
            narrow[i] = (int) values[i];
          }
          view(add(out, 4L * count)).asIntBuffer().put(narrow, 0, count);
          return;
        }
      case UINT64:
        Decimals.uint64((DecimalVector) ours, count, add(out, 8L * count));
        return;
      case FLOAT16:
        {
          float[] values = ((FloatVector) ours).values();
          short[] half = shorts(count);
          for (int i = 0; i < count; i++) {
            half[i] = Float16.toFloat16(values[i]);
          }
          view(add(out, 2L * count)).asShortBuffer().put(half, 0, count);
          return;
        }
      case DECIMAL_LONG:
        Decimals.longs(
            (DecimalVector) ours,
            count,
            plan.byteWidth(),
            add(out, (long) count * plan.byteWidth()));
        return;
      case DECIMAL_BYTES:
        {
          int total = Math.multiplyExact(count, plan.byteWidth());
          Decimals.bytes(
              (DecimalVector) ours, count, plan.byteWidth(), bytes(total), add(out, total));
          return;
        }
      case VARIABLE:
        {
          if (ours instanceof DictionaryVector d) {
            dictionaries.expand(d, count, out);
            return;
          }
          BinaryVector v = (BinaryVector) ours;
          int[] offsets = v.offsets();
          int first = offsets[0];
          int bytes = offsets[count] - first;
          offsets(offsets, count, first, out);
          add(out, bytes).setBytes(0, v.data(), first, bytes);
          return;
        }
      case FIXED:
        if (ours instanceof DictionaryVector d) {
          dictionaries.expandFixed(d, count, plan.byteWidth(), out);
        } else {
          fixed((BinaryVector) ours, count, plan.byteWidth(), out);
        }
        return;
      case DICTIONARY:
        if (ours instanceof DictionaryVector d) {
          dictionaries.ids(d, count, out);
        } else {
          dictionaries.identity(count, out);
        }
        return;
      case LIST:
        offsets(((ListVector) ours).offsets(), count, 0, out);
        return;
      case MAP:
        offsets(((MapVector) ours).offsets(), count, 0, out);
        return;
      case STRUCT:
        return;
      case DENSE_UNION:
        unionBuffers((StructVector) ours, count, plan.children().size(), out);
        return;
      default:
        throw new IllegalStateException("unknown conversion " + plan.conversion());
    }
  }

  /**
   * The vector's buffers of the previous batch, in layout order (the order of {@code out}), to be
   * written again where nobody else holds them; empty for none.
   */
  void reuse(List<ArrowBuf> buffers) {
    reusable = buffers;
  }

  /**
   * A buffer of at least {@code bytes} for the next slot of {@code out}, appended to it with a
   * reference the caller releases: the vector's own buffer of that slot when it is large enough and
   * only the vector holds it (a C Data consumer or an IPC writer still reading the previous batch
   * holds a reference of its own), else a new one. Writing into the same memory batch after batch
   * keeps it in the caches, where fresh memory would first be faulted in or fetched.
   */
  ArrowBuf add(List<ArrowBuf> out, long bytes) {
    int slot = out.size();
    if (slot < reusable.size()) {
      ArrowBuf previous = reusable.get(slot);
      if (previous.capacity() >= bytes
          && previous.capacity() > 0
          && previous.getReferenceManager().getRefCount() == 1
          && previous.getReferenceManager().getAllocator() == allocator) {
        previous.getReferenceManager().retain();
        out.add(previous);
        return previous;
      }
    }
    ArrowBuf b = allocator.buffer(bytes);
    out.add(b);
    return b;
  }

  static ByteBuffer view(ArrowBuf b) {
    return b.nioBuffer(0, Math.toIntExact(b.capacity())).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * The validity bitmap (1 = valid) of {@code count} rows; returns the null count. A column without
   * nulls gets an all-valid bitmap of its own: handed an empty buffer, Arrow would allocate, zero
   * and fill a new one for every batch.
   */
  long validity(boolean[] nulls, boolean[] extra, int count, List<ArrowBuf> out) {
    int words = (count + 63) >>> 6;
    ArrowBuf b = add(out, 8L * words);
    if (nulls == null && extra == null) {
      b.setOne(0, 8L * words);
      return 0;
    }
    if (nulls != null) {
      HeapBits.checkLength(nulls, count, "null mask");
    }
    if (extra != null) {
      HeapBits.checkLength(extra, count, "null mask");
    }
    long valid = 0;
    for (int w = 0, base = 0; w < words; w++, base += 64) {
      int n = Math.min(64, count - base);
      long isNull =
          (nulls == null ? 0 : HeapBits.word(nulls, base, n))
              | (extra == null ? 0 : HeapBits.word(extra, base, n));
      long bits = ~isNull & (n == 64 ? -1L : (1L << n) - 1);
      valid += Long.bitCount(bits);
      b.setLong(8L * w, bits);
    }
    return count - valid;
  }

  private void bits(boolean[] values, int count, List<ArrowBuf> out) {
    HeapBits.checkLength(values, count, "boolean vector");
    int words = (count + 63) >>> 6;
    ArrowBuf b = add(out, 8L * words);
    for (int w = 0, base = 0; w < words; w++, base += 64) {
      b.setLong(8L * w, HeapBits.word(values, base, Math.min(64, count - base)));
    }
  }

  /** {@code count + 1} offsets, less {@code first} so that they start at 0. */
  private void offsets(int[] offsets, int count, int first, List<ArrowBuf> out) {
    ByteBuffer view = view(add(out, 4L * (count + 1)));
    if (first == 0) {
      view.asIntBuffer().put(offsets, 0, count + 1);
      return;
    }
    int[] rebased = ints(count + 1);
    for (int i = 0; i <= count; i++) {
      rebased[i] = offsets[i] - first;
    }
    view.asIntBuffer().put(rebased, 0, count + 1);
  }

  private void fixed(BinaryVector v, int count, int width, List<ArrowBuf> out) {
    int[] offsets = v.offsets();
    long bytes = (long) width * count;
    ArrowBuf b = add(out, bytes);
    if (offsets[count] - offsets[0] == bytes) {
      b.setBytes(0, v.data(), offsets[0], bytes);
      return;
    }
    // Nulls hold empty spans, so the values are not evenly spaced: one copy per value.
    byte[] data = v.data();
    for (int i = 0; i < count; i++) {
      int length = offsets[i + 1] - offsets[i];
      if (length == width) {
        b.setBytes((long) i * width, data, offsets[i], width);
      } else if (length == 0) {
        // A null's slot: zeros rather than what the reused buffer held (in a dictionary built from
        // a plain batch, the slot is an entry of its own).
        b.setZero((long) i * width, width);
      } else {
        throw new IllegalStateException(
            "fixed binary value " + i + " has " + length + " bytes, not " + width);
      }
    }
  }

  private void unionBuffers(StructVector union, int count, int alternatives, List<ArrowBuf> out) {
    byte[] tags = ((ByteVector) union.child(0)).values();
    boolean[] nulls = union.nullMask();
    byte[] typeIds = bytes(count);
    int[] offsets = ints(count);
    for (int i = 0; i < count; i++) {
      byte tag = nulls != null && nulls[i] ? 0 : tags[i];
      if (tag < 0 || tag >= alternatives) {
        throw new IllegalStateException(
            "union tag "
                + tag
                + " at row "
                + i
                + " is not one of "
                + alternatives
                + " alternatives");
      }
      typeIds[i] = tag;
      // Every alternative holds a slot per row, so each row points at its own slot.
      offsets[i] = i;
    }
    add(out, count).setBytes(0, typeIds, 0, count);
    view(add(out, 4L * count)).asIntBuffer().put(offsets, 0, count);
  }

  // ---- scratch arrays, kept between batches

  int[] ints(int n) {
    if (intScratch.length < n) {
      intScratch = new int[n];
    }
    return intScratch;
  }

  private short[] shorts(int n) {
    if (shortScratch.length < n) {
      shortScratch = new short[n];
    }
    return shortScratch;
  }

  byte[] bytes(int n) {
    if (byteScratch.length < n) {
      byteScratch = new byte[n];
    }
    return byteScratch;
  }
}
