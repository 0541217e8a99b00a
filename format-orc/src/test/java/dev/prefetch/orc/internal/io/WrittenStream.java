package dev.prefetch.orc.internal.io;

import dev.prefetch.spi.MemoryLedger;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.orc.CompressionCodec;
import org.apache.orc.CompressionKind;
import org.apache.orc.PhysicalWriter;
import org.apache.orc.impl.OutStream;
import org.apache.orc.impl.PositionRecorder;
import org.apache.orc.impl.WriterImpl;
import org.apache.orc.impl.writer.StreamOptions;

/**
 * A stream written by orc-core's own {@link OutStream} (its compression blocks, with its codec),
 * collected in memory with the row-index positions its writers recorded: the reference the stream
 * layer's tests read back.
 */
public final class WrittenStream implements PhysicalWriter.OutputReceiver {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompressionKind kind;
  private final int blockSize;
  private final OutStream out;

  /** A stream compressed with {@code kind} in blocks of {@code blockSize} bytes. */
  public WrittenStream(CompressionKind kind, int blockSize) {
    this.kind = kind;
    this.blockSize = blockSize;
    StreamOptions options = new StreamOptions(blockSize);
    if (kind != CompressionKind.NONE) {
      CompressionCodec codec = WriterImpl.createCodec(kind);
      options.withCodec(codec, codec.getDefaultOptions());
    }
    this.out = new OutStream("test", options, this);
  }

  /** orc-core's stream, for its writers. */
  public OutStream out() {
    return out;
  }

  /** One row-index position as orc-core's writers record it. */
  public static final class Position implements PositionRecorder {
    private final List<Long> values = new ArrayList<>();

    @Override
    public void addPosition(long offset) {
      values.add(offset);
    }

    /** The position's numbers, as a row index entry lists them. */
    public long[] toArray() {
      long[] array = new long[values.size()];
      for (int i = 0; i < array.length; i++) {
        array[i] = values.get(i);
      }
      return array;
    }

    /** The numbers as the stream layer reads them. */
    public IndexPositions positions() {
      return new IndexPositions(toArray());
    }
  }

  /** Flushes orc-core's stream and returns its bytes. */
  public byte[] finish() throws IOException {
    out.flush();
    return bytes.toByteArray();
  }

  /** The bytes written so far (after {@link #finish()}: all). */
  public byte[] bytes() {
    return bytes.toByteArray();
  }

  public CompressionKind kind() {
    return kind;
  }

  public int blockSize() {
    return blockSize;
  }

  /** A context to read streams of this kind and block size. */
  public DecompressionContext context() {
    return new DecompressionContext(kind, blockSize, MemoryLedger.NONE, 64L << 20);
  }

  @Override
  public void output(ByteBuffer buffer) {
    bytes.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
  }

  @Override
  public void suppress() {
    throw new UnsupportedOperationException("a test stream is never suppressed");
  }
}
