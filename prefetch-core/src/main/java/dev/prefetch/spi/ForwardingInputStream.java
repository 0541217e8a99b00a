package dev.prefetch.spi;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;

/**
 * A filesystem stream over another one that passes the position calls through unchanged; its
 * subclasses decide what the reads do (count them, cut them). Confined to the thread that reads it,
 * like the stream it wraps.
 */
public abstract class ForwardingInputStream extends FSInputStream {

  /** The wrapped stream, which every call ends at. */
  protected final FSDataInputStream in;

  protected ForwardingInputStream(FSDataInputStream in) {
    this.in = Objects.requireNonNull(in, "in is null");
  }

  @Override
  public final void seek(long pos) throws IOException {
    in.seek(pos);
  }

  @Override
  public final long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public final boolean seekToNewSource(long targetPos) throws IOException {
    return in.seekToNewSource(targetPos);
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  /**
   * The whole of {@code buffer}, through the subclass's {@link #readFully(long, byte[], int, int)}.
   */
  @Override
  public final void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }
}
