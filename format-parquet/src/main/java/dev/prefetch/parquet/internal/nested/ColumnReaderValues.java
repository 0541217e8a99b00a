package dev.prefetch.parquet.internal.nested;

import dev.prefetch.parquet.internal.page.BinaryBuilder;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.nio.ByteBuffer;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;

/**
 * The current entry's value of a parquet-hadoop {@link ColumnReader}, served through the decoder
 * interface so that a nested leaf fills its buffer through the same {@code ColumnAdapter} as a flat
 * column. Serves exactly one value per call (the reader's cursor moves only when the assembler
 * consumes the entry).
 */
final class ColumnReaderValues implements ValuesDecoder {

  private ColumnReader reader;

  void setReader(ColumnReader reader) {
    this.reader = reader;
  }

  private static void checkOne(int count) {
    if (count != 1) {
      throw new IllegalArgumentException(
          "a column reader serves one value at a time, not " + count);
    }
  }

  @Override
  public void readInts(int[] out, int offset, int count) {
    checkOne(count);
    out[offset] = reader.getInteger();
  }

  @Override
  public void readLongs(long[] out, int offset, int count) {
    checkOne(count);
    out[offset] = reader.getLong();
  }

  @Override
  public void readFloats(float[] out, int offset, int count) {
    checkOne(count);
    out[offset] = reader.getFloat();
  }

  @Override
  public void readDoubles(double[] out, int offset, int count) {
    checkOne(count);
    out[offset] = reader.getDouble();
  }

  @Override
  public void readBooleans(boolean[] out, int offset, int count) {
    checkOne(count);
    out[offset] = reader.getBoolean();
  }

  @Override
  public void readBinary(BinaryBuilder out, int count) {
    checkOne(count);
    Binary value = reader.getBinary();
    ByteBuffer buffer = value.toByteBuffer();
    if (buffer.hasArray()) {
      out.append(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
    } else {
      byte[] copy = value.getBytes();
      out.append(copy, 0, copy.length);
    }
  }

  @Override
  public void skip(int count) {
    for (int i = 0; i < count; i++) {
      reader.skip();
    }
  }
}
