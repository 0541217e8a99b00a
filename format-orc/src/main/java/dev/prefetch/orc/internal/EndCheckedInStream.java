package dev.prefetch.orc.internal;

import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.hive.common.io.DiskRangeList;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.PositionProvider;

/**
 * One of orc-core's column streams that refuses to be read past its end twice.
 *
 * <p>Why: orc-core 2.3's integer run decoder (RLE v2, byte-aligned bit widths) reads a run's packed
 * values with a loop that adds each {@code read}'s result to the bytes read until they reach the
 * bytes wanted. At the end of a stream {@code read} answers -1, which the loop adds as well, so
 * when a corrupt run header (or a stream cut short by a corrupt length) asks for more bytes than
 * the stream holds, the count walks down through the whole {@code int} range, about four billion
 * calls per eight values, without ever looking at the interrupt flag: the reading thread spins for
 * minutes to hours. Its skip loops over string, binary and double streams do the same with {@code
 * skip} answering 0 at the end.
 *
 * <p>The first read at the end still answers -1 (or a skip 0), as {@link java.io.InputStream} says,
 * since orc-core's own checks rely on that and throw a clear {@code EOFException}. A decoder that
 * reads again without seeking was not checking: that read throws {@link StreamEndException}. A seek
 * moves away from the end and clears that state.
 *
 * <p>Cost: every call is forwarded to the real stream plus one comparison of its result; the
 * decoders' call sites see only this class, so the JIT inlines it.
 *
 * <p>Confined to the thread of the record reader that reads the stream.
 */
final class EndCheckedInStream extends InStream {

  private final InStream in;

  /** The last read or skip found the stream at its end, and no seek came since. */
  private boolean atEnd;

  EndCheckedInStream(Object name, InStream in) {
    super(name, 0, 0);
    this.in = in;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b < 0) {
      reachedEnd();
    }
    return b;
  }

  @Override
  public int read(byte[] data, int offset, int length) throws IOException {
    int n = in.read(data, offset, length);
    if (n < 0) {
      reachedEnd();
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(n);
    if (skipped <= 0 && n > 0) {
      reachedEnd();
    }
    return skipped;
  }

  private void reachedEnd() throws StreamEndException {
    if (atEnd) {
      throw new StreamEndException(
          "Read past the end of " + in + ": its runs need more bytes than it holds");
    }
    atEnd = true;
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public void seek(PositionProvider index) throws IOException {
    in.seek(index);
    atEnd = false;
  }

  @Override
  public void changeIv(Consumer<byte[]> modifier) {
    in.changeIv(modifier);
  }

  @Override
  protected void setCurrent(DiskRangeList newRange, boolean isJump) {
    // Not called: this stream has no ranges of its own; the real stream keeps its position.
  }

  @Override
  public void close() {
    in.close();
  }

  @Override
  public String toString() {
    return in.toString();
  }
}
