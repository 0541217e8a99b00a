package dev.prefetch.parquet.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A stream that forwards every call to another one; subclasses override what they watch or change
 * (routing vectored reads, checking page headers as they pass).
 */
public abstract class ForwardingSeekableInputStream extends SeekableInputStream {

  protected final SeekableInputStream in;

  protected ForwardingSeekableInputStream(SeekableInputStream in) {
    this.in = Objects.requireNonNull(in, "in is null");
  }

  @Override
  public long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public void seek(long newPos) throws IOException {
    in.seek(newPos);
  }

  @Override
  public int read() throws IOException {
    return in.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return in.read(b, off, len);
  }

  @Override
  public void readFully(byte[] bytes) throws IOException {
    in.readFully(bytes);
  }

  @Override
  public void readFully(byte[] bytes, int start, int len) throws IOException {
    in.readFully(bytes, start, len);
  }

  @Override
  public int read(ByteBuffer buf) throws IOException {
    return in.read(buf);
  }

  @Override
  public void readFully(ByteBuffer buf) throws IOException {
    in.readFully(buf);
  }

  @Override
  public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
    return in.readVectoredAvailable(allocator);
  }

  @Override
  public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
      throws IOException {
    in.readVectored(ranges, allocator);
  }

  @Override
  public long skip(long n) throws IOException {
    return in.skip(n);
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
