package dev.prefetch.parquet.internal.footer;

import dev.prefetch.parquet.internal.thrift.CompactCursor;
import java.io.InputStream;
import java.nio.ByteBuffer;
import shaded.parquet.org.apache.thrift.TConfiguration;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;
import shaded.parquet.org.apache.thrift.transport.TIOStreamTransport;
import shaded.parquet.org.apache.thrift.transport.TTransportException;

/**
 * Thrift compact protocols over a span of footer bytes, for parquet-format-structures' generated
 * classes.
 *
 * <p>Every limit (message size, string length, container length) is the span's own length: no value
 * inside a span can be longer than the span, so Thrift rejects a corrupt length before it
 * allocates, and a footer larger than parquet-hadoop's default 100 MB limit still decodes because
 * each row group is decoded on its own.
 */
final class ThriftSlices {

  private static final int RECURSION_LIMIT = CompactCursor.MAX_DEPTH;

  private ThriftSlices() {}

  /** A protocol reading {@code buffer[start, end)} (absolute indexes). */
  static TCompactProtocol protocol(ByteBuffer buffer, int start, int end)
      throws TTransportException {
    int length = end - start;
    int limit = Math.max(1, length);
    TConfiguration configuration = new TConfiguration(limit, limit, RECURSION_LIMIT);
    TIOStreamTransport transport =
        new TIOStreamTransport(configuration, new SliceInputStream(buffer, start, end));
    return new TCompactProtocol(transport, limit, limit);
  }

  /** An unsynchronized stream over a span of a (possibly read-only) buffer, without copying. */
  private static final class SliceInputStream extends InputStream {
    private final ByteBuffer buffer;
    private final int end;
    private int pos;

    SliceInputStream(ByteBuffer buffer, int start, int end) {
      this.buffer = buffer;
      this.pos = start;
      this.end = end;
    }

    @Override
    public int read() {
      return pos < end ? buffer.get(pos++) & 0xff : -1;
    }

    @Override
    public int read(byte[] target, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      if (pos >= end) {
        return -1;
      }
      int n = Math.min(length, end - pos);
      buffer.get(pos, target, offset, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return end - pos;
    }
  }
}
