package dev.prefetch.orc.internal.io;

/**
 * The decompressed bytes of one stream of a stripe, read through a window: the decoders read {@link
 * #array()} from {@link #position()} up to {@link #limit()} and move the position on with {@link
 * #position(int)}; {@link #ensure(int)} makes the next bytes contiguous in the window first.
 *
 * <h2>The window</h2>
 *
 * <ul>
 *   <li>An uncompressed stream (a file without compression) is its own window: the stripe's bytes,
 *       never copied.
 *   <li>A compressed stream is a sequence of blocks, each a 3-byte little-endian header ({@code
 *       length << 1 | isOriginal}) and that many bytes, compressed or (original) not. The window
 *       holds the current block: decompressed into a buffer lent by {@link BlockBuffers}, or an
 *       original block in place in the stripe's bytes.
 *   <li>A value may straddle two blocks. When a decoder {@link #ensure ensures} more bytes than the
 *       window has left, the bytes left are moved to the front of the buffer and the next blocks
 *       are decompressed (or copied) right after them, so the value is contiguous; hence the
 *       buffer's {@link #MAX_CONTIGUOUS_BYTES} beyond the block size. The decoders ensure a whole
 *       run (RLE v2 needs at most 4,356 bytes, RLE v1 and byte RLE far less) or one value, never
 *       more than that.
 * </ul>
 *
 * <h2>Checks</h2>
 *
 * A block header cut off by the stream's end, a block longer than the file's compression block size
 * or than the rest of the stream, a block that does not decompress or decompresses to more than the
 * block size, bytes ensured past the stream's end, and a seek outside the stream are a {@link
 * CorruptStreamException}. Nothing here allocates from a length read out of the stream: the buffer
 * is the block size the file states (checked when the file was opened), and {@link
 * #maxRemainingBytes()} bounds what the decoders may allocate before they read.
 *
 * <h2>Positions</h2>
 *
 * A row index gives a compressed stream's position as the offset of a block's header in the stream
 * and the number of decompressed bytes of that block to skip; an uncompressed stream's as one byte
 * offset. {@link #seek(IndexPositions)} takes them, staying in the current block when it is the
 * one.
 *
 * <p>Confined to one thread (the column reader's). {@link #close()} gives the buffer back; the
 * input is not used after.
 */
public final class StreamInput implements AutoCloseable {

  /**
   * The most bytes {@link #ensure(int)} makes contiguous: a whole RLE v2 run (a patched-base run of
   * 512 64-bit values with 31 64-bit patches takes 4,356 bytes), rounded up.
   */
  public static final int MAX_CONTIGUOUS_BYTES = 8 << 10;

  /** Bytes of a compression block's header. */
  static final int HEADER_BYTES = 3;

  private static final byte[] EMPTY = new byte[0];

  private final String name;

  /**
   * The stream's bytes as stored: stream byte {@code i} is {@code source[start + i]}, for {@code i}
   * in {@code [first, length)}: the part of the stream that was read (all of it, or from a row
   * group's position on). {@code start} may be negative when only a later part was read.
   */
  private final byte[] source;

  private final int start;

  /** The first stream byte held; the stream's bytes before it were not read. */
  private final int first;

  /** The end of the bytes held: the stream's length, or where the read part ends. */
  private final int length;

  /** null: an uncompressed stream, without blocks. */
  private final BlockCodec codec;

  private final int blockSize;
  private final BlockBuffers buffers;

  /** The buffer lent by {@link #buffers}, taken at the first compressed block. */
  private byte[] work;

  private byte[] array;
  private int pos;
  private int limit;

  /** Stream offset of the next block header not read yet ({@link #length} when none is left). */
  private long next;

  /** Stream offset of the header of the block that ends the window, or -1 when none is loaded. */
  private long blockOffset;

  /** Where that block's first decompressed byte is in {@link #array}. */
  private int blockStart;

  /** Whether the block whose header {@link #readHeader()} read last is original (uncompressed). */
  private boolean original;

  private boolean closed;

  private StreamInput(
      String name,
      byte[] source,
      int offset,
      int first,
      int end,
      BlockCodec codec,
      int blockSize,
      BlockBuffers buffers) {
    if (first < 0 || end < first) {
      throw new IllegalArgumentException("bad stream part [" + first + ", " + end + ")");
    }
    java.util.Objects.checkFromIndexSize(offset, end - first, source.length);
    this.name = java.util.Objects.requireNonNull(name, "name is null");
    this.source = source;
    this.start = offset - first;
    this.first = first;
    this.length = end;
    this.codec = codec;
    this.blockSize = blockSize;
    this.buffers = buffers;
    if (codec == null) {
      this.array = source;
      this.pos = offset;
      this.limit = start + end;
      this.next = end;
      this.blockOffset = 0;
      this.blockStart = start;
    } else {
      this.array = EMPTY;
      this.next = first;
      this.blockOffset = -1;
    }
  }

  /**
   * An uncompressed stream's bytes {@code [first, end)}, held in {@code bytes} from {@code offset}.
   */
  static StreamInput uncompressed(String name, byte[] bytes, int offset, int first, int end) {
    return new StreamInput(name, bytes, offset, first, end, null, 0, null);
  }

  /**
   * A compressed stream's blocks {@code [first, end)} (stream offsets; {@code first} a block's
   * header), held in {@code bytes} from {@code offset}, decompressed by {@code codec} into buffers
   * of {@code buffers} (whose block size is the file's).
   */
  static StreamInput compressed(
      String name,
      byte[] bytes,
      int offset,
      int first,
      int end,
      BlockCodec codec,
      BlockBuffers buffers) {
    return new StreamInput(
        name,
        bytes,
        offset,
        first,
        end,
        java.util.Objects.requireNonNull(codec, "codec is null"),
        buffers.bufferBytes() - MAX_CONTIGUOUS_BYTES,
        buffers);
  }

  /** The stream's name, as its opener gave it (it starts every {@link CorruptStreamException}). */
  public String name() {
    return name;
  }

  /** The array the window is in; changes when the window moves (after {@link #ensure}). */
  public byte[] array() {
    return array;
  }

  /** Where the next byte is in {@link #array()}. */
  public int position() {
    return pos;
  }

  /** The end of the window in {@link #array()}. */
  public int limit() {
    return limit;
  }

  /**
   * Consumes the window's bytes up to {@code position}, which lies in {@code [position(),
   * limit()]}.
   */
  public void position(int position) {
    assert position >= pos && position <= limit
        : position + " outside [" + pos + ", " + limit + "]";
    pos = position;
  }

  /** Bytes left in the window. */
  public int remaining() {
    return limit - pos;
  }

  /**
   * Makes at least {@code n} bytes (at most {@link #MAX_CONTIGUOUS_BYTES}) contiguous in the window
   * from {@link #position()}.
   *
   * @throws CorruptStreamException when the stream ends first, or a block is corrupt
   */
  public void ensure(int n) throws CorruptStreamException {
    if (limit - pos < n && refill(n) < n) {
      throw new CorruptStreamException(
          name, "needs " + n + " more bytes, but the stream ends after " + (limit - pos));
    }
  }

  /**
   * Makes {@code n} bytes (at most {@link #MAX_CONTIGUOUS_BYTES}) contiguous in the window, or all
   * the stream has left when that is less.
   *
   * @return the bytes in the window, at most {@code n}: fewer only at the stream's end
   */
  public int ensureUpTo(int n) throws CorruptStreamException {
    int available = limit - pos;
    if (available >= n) {
      return n;
    }
    return Math.min(n, refill(n));
  }

  /**
   * Whether the stream has another byte, loading the next block when the window is empty.
   *
   * @throws CorruptStreamException when a block is corrupt
   */
  public boolean hasMore() throws CorruptStreamException {
    return pos < limit || refill(1) > 0;
  }

  /**
   * The next byte, unsigned.
   *
   * @throws CorruptStreamException at the stream's end
   */
  public int readUnsignedByte() throws CorruptStreamException {
    if (pos == limit && refill(1) == 0) {
      throw new CorruptStreamException(name, "needs another byte, but the stream ends");
    }
    return array[pos++] & 0xFF;
  }

  /**
   * Copies the next {@code n} bytes into {@code out[offset, offset + n)}, across blocks.
   *
   * @throws CorruptStreamException when the stream ends first
   */
  public void readFully(byte[] out, int offset, int n) throws CorruptStreamException {
    java.util.Objects.checkFromIndexSize(offset, n, out.length);
    int left = n;
    while (left > 0) {
      if (pos == limit && refill(1) == 0) {
        throw new CorruptStreamException(
            name, "needs " + n + " bytes, but the stream ends after " + (n - left));
      }
      int chunk = Math.min(left, limit - pos);
      System.arraycopy(array, pos, out, offset, chunk);
      pos += chunk;
      offset += chunk;
      left -= chunk;
    }
  }

  /**
   * The rest of the stream's decompressed bytes, in a new array: a small stream read whole (a
   * stripe footer, a row index). The array grows with the bytes as they are decompressed, so its
   * size never comes from a length the stream states.
   *
   * @throws CorruptStreamException when a block is corrupt
   */
  public byte[] readAll() throws CorruptStreamException {
    byte[] out = new byte[Math.max(256, Math.min(1 << 16, limit - pos))];
    int filled = 0;
    while (hasMore()) {
      int n = limit - pos;
      if (filled + n > out.length) {
        long grown = Math.max((long) out.length * 2, (long) filled + n);
        if (grown > Integer.MAX_VALUE - 8) {
          throw new CorruptStreamException(name, "decompresses to more than one array holds");
        }
        out = java.util.Arrays.copyOf(out, (int) grown);
      }
      System.arraycopy(array, pos, out, filled, n);
      filled += n;
      pos = limit;
    }
    return filled == out.length ? out : java.util.Arrays.copyOf(out, filled);
  }

  /**
   * Skips the next {@code n} bytes (decompressing the blocks they are in: a block's decompressed
   * length is known only by decompressing it).
   *
   * @throws CorruptStreamException when the stream ends first
   */
  public void skip(long n) throws CorruptStreamException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    long left = n;
    while (left > 0) {
      if (pos == limit && refill(1) == 0) {
        throw new CorruptStreamException(
            name, "skips " + n + " bytes, but the stream ends after " + (n - left));
      }
      int chunk = (int) Math.min(left, limit - pos);
      pos += chunk;
      left -= chunk;
    }
  }

  /**
   * The most decompressed bytes the stream can still hold: exact for an uncompressed stream; for a
   * compressed one the window's bytes plus what the blocks left can decompress to (each at most the
   * block size, and at most the codec's expansion of its bytes). Decoders check a length read out
   * of the stream against it before they allocate for it.
   */
  public long maxRemainingBytes() {
    long window = (long) limit - pos;
    if (codec == null) {
      return window;
    }
    long rest = length - next;
    // a block that yields anything takes its header and at least one byte
    long blocks = rest / (HEADER_BYTES + 1);
    return window + Math.min(rest * codec.maxExpansion(), blocks * blockSize);
  }

  /**
   * Seeks to a row index position: for a compressed stream, the offset of a block's header in the
   * stream and the decompressed bytes of that block to skip; for an uncompressed one, the byte
   * offset. Takes those positions from {@code positions}.
   *
   * @throws CorruptStreamException when the position lies outside the stream or its block, or the
   *     entry has too few positions
   */
  public void seek(IndexPositions positions) throws CorruptStreamException {
    if (codec == null) {
      seek(positions.next(name), 0);
    } else {
      long block = positions.next(name);
      seek(block, positions.next(name));
    }
  }

  /**
   * Seeks to the decompressed byte {@code skip} of the block whose header is at {@code
   * blockOffset}; for an uncompressed stream, to byte {@code blockOffset} ({@code skip} is 0).
   *
   * @throws CorruptStreamException when that lies outside the stream or the block
   */
  public void seek(long blockOffset, long skip) throws CorruptStreamException {
    checkOpen();
    if (blockOffset < 0 || skip < 0) {
      throw new CorruptStreamException(
          name, "seek to a negative position " + blockOffset + " (+" + skip + ")");
    }
    if (blockOffset < first) {
      throw new CorruptStreamException(
          name,
          "seek to byte "
              + blockOffset
              + " (+"
              + skip
              + "), before the part read from byte "
              + first
              + " on (the row index positions disagree)");
    }
    if (codec == null) {
      if (blockOffset > length || skip != 0) {
        throw new CorruptStreamException(
            name,
            "seek to byte " + blockOffset + " (+" + skip + ") outside its " + length + " bytes");
      }
      pos = start + (int) blockOffset;
      return;
    }
    if (blockOffset > length || skip > blockSize || (blockOffset == length && skip != 0)) {
      throw new CorruptStreamException(
          name,
          "seek to byte "
              + skip
              + " of the block at "
              + blockOffset
              + ", outside the stream of "
              + length
              + " bytes in blocks of "
              + blockSize);
    }
    if (blockOffset == this.blockOffset && array != EMPTY) {
      if (blockStart + skip > limit) {
        throw seekPastBlock(blockOffset, skip, limit - blockStart);
      }
      pos = blockStart + (int) skip;
      return;
    }
    array = EMPTY;
    pos = 0;
    limit = 0;
    this.blockOffset = -1;
    next = blockOffset;
    if (skip == 0) {
      return; // the block loads when it is read
    }
    loadBlock();
    if (blockStart + skip > limit) {
      throw seekPastBlock(blockOffset, skip, limit - blockStart);
    }
    pos = blockStart + (int) skip;
  }

  private CorruptStreamException seekPastBlock(long blockOffset, long skip, int blockLength) {
    return new CorruptStreamException(
        name,
        "seek to byte "
            + skip
            + " of the block at "
            + blockOffset
            + ", which decompresses to "
            + blockLength
            + " bytes");
  }

  /**
   * Moves the bytes left in the window to the front of the buffer and appends blocks after them
   * until at least {@code need} bytes are in the window or the stream ends.
   *
   * @return the bytes in the window
   */
  private int refill(int need) throws CorruptStreamException {
    checkOpen();
    if (need > MAX_CONTIGUOUS_BYTES) {
      throw new IllegalArgumentException(
          "at most " + MAX_CONTIGUOUS_BYTES + " bytes are made contiguous, not " + need);
    }
    int carry = limit - pos;
    if (codec == null || next >= length) {
      return carry;
    }
    if (carry == 0) {
      // The common case: the window is used up; load the next block (skipping empty ones).
      while (next < length) {
        loadBlock();
        if (limit - pos >= need) {
          return limit - pos;
        }
        if (limit > pos) {
          break; // a short block: join the next ones after it below
        }
      }
      carry = limit - pos;
      if (carry >= need || next >= length) {
        return carry;
      }
    }
    byte[] buffer = work();
    System.arraycopy(array, pos, buffer, 0, carry);
    int filled = carry;
    while (filled < need && next < length) {
      long header = next;
      int chunk = readHeader();
      int chunkStart = start + (int) header + HEADER_BYTES;
      int n;
      if (original) {
        System.arraycopy(source, chunkStart, buffer, filled, chunk);
        n = chunk;
      } else {
        n = decompress(header, chunkStart, chunk, buffer, filled);
      }
      blockOffset = header;
      blockStart = filled;
      filled += n;
    }
    array = buffer;
    pos = 0;
    limit = filled;
    return filled;
  }

  /** Loads the block at {@link #next} alone into the window (in place when it is original). */
  private void loadBlock() throws CorruptStreamException {
    long header = next;
    int chunk = readHeader();
    int chunkStart = start + (int) header + HEADER_BYTES;
    blockOffset = header;
    if (original) {
      array = source;
      pos = chunkStart;
      limit = chunkStart + chunk;
      blockStart = chunkStart;
    } else {
      byte[] buffer = work();
      int n = decompress(header, chunkStart, chunk, buffer, 0);
      array = buffer;
      pos = 0;
      limit = n;
      blockStart = 0;
    }
  }

  /**
   * Reads the block header at {@link #next}, checks the block against the block size and the
   * stream, and moves {@link #next} past the block.
   *
   * @return the block's stored length; {@link #original} says whether it is uncompressed
   */
  private int readHeader() throws CorruptStreamException {
    long header = next;
    if (length - header < HEADER_BYTES) {
      throw new CorruptStreamException(
          name,
          "a compression block header at byte "
              + header
              + " is cut off by the stream's end at "
              + length);
    }
    int at = start + (int) header;
    int b0 = source[at] & 0xFF;
    int b1 = source[at + 1] & 0xFF;
    int b2 = source[at + 2] & 0xFF;
    int chunk = (b2 << 15) | (b1 << 7) | (b0 >>> 1);
    if (chunk > blockSize) {
      throw new CorruptStreamException(
          name,
          "the compression block at byte "
              + header
              + " claims "
              + chunk
              + " bytes, more than the file's compression block size of "
              + blockSize);
    }
    if (chunk > length - header - HEADER_BYTES) {
      throw new CorruptStreamException(
          name,
          "the compression block at byte "
              + header
              + " claims "
              + chunk
              + " bytes, past the stream's end at "
              + length);
    }
    original = (b0 & 1) == 1;
    next = header + HEADER_BYTES + chunk;
    return chunk;
  }

  private int decompress(long header, int chunkStart, int chunk, byte[] buffer, int at)
      throws CorruptStreamException {
    if (chunk == 0) {
      return 0;
    }
    try {
      return codec.decompress(source, chunkStart, chunk, buffer, at, blockSize);
    } catch (MalformedBlockException e) {
      CorruptStreamException corrupt =
          new CorruptStreamException(
              name, "the compression block at byte " + header + ": " + e.getMessage());
      corrupt.initCause(e);
      throw corrupt;
    }
  }

  private byte[] work() {
    if (work == null) {
      work = buffers.take();
    }
    return work;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
  }

  /** Gives the buffer back to its pool; the input is not read after. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    array = EMPTY;
    pos = 0;
    limit = 0;
    if (work != null) {
      byte[] lent = work;
      work = null;
      buffers.give(lent);
    }
  }

  @Override
  public String toString() {
    return name
        + (codec == null
            ? " at byte " + (pos - start) + " of " + length
            : " at block "
                + blockOffset
                + " (+"
                + (pos - blockStart)
                + "), next block "
                + next
                + " of "
                + length);
  }
}
