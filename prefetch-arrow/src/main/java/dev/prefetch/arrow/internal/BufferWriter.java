package dev.prefetch.arrow.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DecimalVector;
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
 * a batch vector, into buffers newly allocated from the allocator and appended to the caller's
 * list, which releases them.
 *
 * <p>Bulk: primitive arrays of the same width go through a little-endian view of the buffer ({@code
 * LongBuffer.put(long[])} and the like, one memory copy on little-endian machines), byte arrays
 * through {@link ArrowBuf#setBytes}. Only what has no equal layout is converted value by value,
 * into scratch arrays kept between calls and then copied in bulk: bitmaps from {@code boolean[]}
 * (64 values per word), narrowed unsigned integers, half floats, decimals (our big-endian or long
 * unscaled values to Arrow's little-endian 16 or 32 bytes), and a union's type ids. Not
 * thread-safe.
 */
final class BufferWriter {

  private final BufferAllocator allocator;
  private long[] longScratch = new long[0];
  private int[] intScratch = new int[0];
  private short[] shortScratch = new short[0];
  private byte[] byteScratch = new byte[0];
  private List<ArrowBuf> reusable = List.of();

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
        uint64((DecimalVector) ours, count, out);
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
        decimalLongs((DecimalVector) ours, count, plan.byteWidth(), out);
        return;
      case DECIMAL_BYTES:
        decimalBytes((DecimalVector) ours, count, plan.byteWidth(), out);
        return;
      case VARIABLE:
        {
          BinaryVector v = (BinaryVector) ours;
          int[] offsets = v.offsets();
          int first = offsets[0];
          int bytes = offsets[count] - first;
          offsets(offsets, count, first, out);
          add(out, bytes).setBytes(0, v.data(), first, bytes);
          return;
        }
      case FIXED:
        fixed((BinaryVector) ours, count, plan.byteWidth(), out);
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
  private ArrowBuf add(List<ArrowBuf> out, long bytes) {
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

  private static ByteBuffer view(ArrowBuf b) {
    return b.nioBuffer(0, Math.toIntExact(b.capacity())).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The validity bitmap (1 = valid) of {@code count} rows; returns the null count. */
  long validity(boolean[] nulls, boolean[] extra, int count, List<ArrowBuf> out) {
    if (nulls == null && extra == null) {
      // loadFieldBuffers makes an all-valid bitmap itself for a null count of 0.
      out.add(allocator.getEmpty());
      return 0;
    }
    int words = (count + 63) >>> 6;
    long[] bitmap = longs(words);
    long nullCount = 0;
    for (int w = 0; w < words; w++) {
      int base = w << 6;
      int end = Math.min(count, base + 64);
      long bits = 0;
      if (extra == null) {
        for (int i = base; i < end; i++) {
          bits |= (nulls[i] ? 0L : 1L) << (i - base);
        }
      } else {
        for (int i = base; i < end; i++) {
          boolean isNull = (nulls != null && nulls[i]) || extra[i];
          bits |= (isNull ? 0L : 1L) << (i - base);
        }
      }
      nullCount += (end - base) - Long.bitCount(bits);
      bitmap[w] = bits;
    }
    view(add(out, 8L * words)).asLongBuffer().put(bitmap, 0, words);
    return nullCount;
  }

  private void bits(boolean[] values, int count, List<ArrowBuf> out) {
    int words = (count + 63) >>> 6;
    long[] bitmap = longs(words);
    for (int w = 0; w < words; w++) {
      int base = w << 6;
      int end = Math.min(count, base + 64);
      long bits = 0;
      for (int i = base; i < end; i++) {
        bits |= (values[i] ? 1L : 0L) << (i - base);
      }
      bitmap[w] = bits;
    }
    view(add(out, 8L * words)).asLongBuffer().put(bitmap, 0, words);
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
      } else if (length != 0) {
        throw new IllegalStateException(
            "fixed binary value " + i + " has " + length + " bytes, not " + width);
      }
    }
  }

  private void decimalLongs(DecimalVector v, int count, int width, List<ArrowBuf> out) {
    long[] unscaled = v.unscaledLongs();
    int words = width / 8;
    long[] le = longs(count * words);
    if (words == 2) {
      // Decimal128, the common width: low word, then the sign extension.
      for (int i = 0, at = 0; i < count; i++, at += 2) {
        long value = unscaled[i];
        le[at] = value;
        le[at + 1] = value >> 63;
      }
    } else {
      for (int i = 0, at = 0; i < count; i++) {
        long value = unscaled[i];
        long sign = value >> 63;
        le[at++] = value;
        for (int k = 1; k < words; k++) {
          le[at++] = sign;
        }
      }
    }
    view(add(out, 8L * count * words)).asLongBuffer().put(le, 0, count * words);
  }

  private void decimalBytes(DecimalVector v, int count, int width, List<ArrowBuf> out) {
    byte[] data = v.data();
    int[] offsets = v.offsets();
    int total = Math.multiplyExact(count, width);
    byte[] le = bytes(total);
    boolean[] nulls = v.nullMask();
    for (int i = 0; i < count; i++) {
      int start = offsets[i];
      int length = offsets[i + 1] - start;
      int at = i * width;
      if (length > width) {
        if (nulls != null && nulls[i]) {
          length = 0;
        } else {
          throw new IllegalStateException(
              "decimal value " + i + " has " + length + " bytes, more than " + width);
        }
      }
      for (int k = 0; k < length; k++) {
        le[at + k] = data[start + length - 1 - k];
      }
      byte sign = length > 0 && data[start] < 0 ? (byte) -1 : 0;
      for (int k = length; k < width; k++) {
        le[at + k] = sign;
      }
    }
    add(out, total).setBytes(0, le, 0, total);
  }

  private void uint64(DecimalVector v, int count, List<ArrowBuf> out) {
    byte[] data = v.data();
    int[] offsets = v.offsets();
    long[] values = longs(count);
    for (int i = 0; i < count; i++) {
      int end = offsets[i + 1];
      // The unscaled value is below 2^64: at most 9 bytes, the first a zero sign byte.
      int start = Math.max(offsets[i], end - 8);
      long bits = 0;
      for (int k = start; k < end; k++) {
        bits = (bits << 8) | (data[k] & 0xFF);
      }
      values[i] = bits;
    }
    view(add(out, 8L * count)).asLongBuffer().put(values, 0, count);
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

  private long[] longs(int n) {
    if (longScratch.length < n) {
      longScratch = new long[n];
    }
    return longScratch;
  }

  private int[] ints(int n) {
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

  private byte[] bytes(int n) {
    if (byteScratch.length < n) {
      byteScratch = new byte[n];
    }
    return byteScratch;
  }
}
