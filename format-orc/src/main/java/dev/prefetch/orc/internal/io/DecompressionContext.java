package dev.prefetch.orc.internal.io;

import dev.prefetch.spi.MemoryLedger;
import java.util.Objects;
import org.apache.orc.CompressionKind;

/**
 * What one range reader needs to read the streams of one ORC file: the file's codec (one instance,
 * with its native state), its compression block size and the pool of buffers blocks decompress
 * into. {@link #open} wraps the stored bytes of one stream of a stripe as a {@link StreamInput}.
 *
 * <p>Confined to the thread of the range reader that owns it; {@link #close()} frees the codec's
 * native state and the free buffers, after the reader closed its streams.
 */
public final class DecompressionContext implements AutoCloseable {

  /** The largest compression block ORC can describe: a block header holds 23 bits of length. */
  public static final int MAX_BLOCK_SIZE = (1 << 23) - 1;

  private final CompressionKind kind;
  private final BlockCodec codec;
  private final BlockBuffers buffers;

  /**
   * @param kind the file's compression (its postscript's)
   * @param blockSize the file's compression block size, in (0, {@link #MAX_BLOCK_SIZE}]; unused for
   *     {@code NONE}
   * @param ledger where the decompression buffers are counted
   * @param maxFreeBytes the most bytes of free buffers kept for reuse between stripes
   */
  public DecompressionContext(
      CompressionKind kind, int blockSize, MemoryLedger ledger, long maxFreeBytes) {
    this.kind = Objects.requireNonNull(kind, "kind is null");
    Objects.requireNonNull(ledger, "ledger is null");
    if (kind == CompressionKind.NONE) {
      this.codec = null;
      this.buffers = null;
    } else {
      this.buffers = new BlockBuffers(blockSize, ledger, maxFreeBytes);
      this.codec = BlockCodec.of(kind);
    }
  }

  /** The file's compression. */
  public CompressionKind kind() {
    return kind;
  }

  /**
   * The stream stored in {@code bytes[offset, offset + length)}, read through this context's codec
   * and buffers; its name (say {@code "column 3 DATA"}) starts every error it raises. The bytes are
   * not copied and must not change while the stream is read.
   */
  public StreamInput open(String name, byte[] bytes, int offset, int length) {
    return openPart(name, bytes, offset, 0, length);
  }

  /**
   * The part {@code [first, end)} of a stream (offsets in the stream; for a compressed stream
   * {@code first} is a block's header, and {@code end} the stream's end or a point past the last
   * block read), stored in {@code bytes} from {@code offset}: a stream of which only the row groups
   * a read needs were loaded. It reads as the whole stream would from {@code first} on; a seek
   * before {@code first}, and a read past {@code end}, are a {@link CorruptStreamException}.
   */
  public StreamInput openPart(String name, byte[] bytes, int offset, long first, long end) {
    if (first < 0 || end < first || end > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("bad stream part [" + first + ", " + end + ")");
    }
    Objects.checkFromIndexSize(offset, end - first, bytes.length);
    return codec == null
        ? StreamInput.uncompressed(name, bytes, offset, (int) first, (int) end)
        : StreamInput.compressed(name, bytes, offset, (int) first, (int) end, codec, buffers);
  }

  /** The pool of decompression buffers; null for an uncompressed file. */
  public BlockBuffers buffers() {
    return buffers;
  }

  @Override
  public void close() {
    if (codec != null) {
      codec.close();
      buffers.close();
    }
  }
}
