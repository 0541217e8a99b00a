package dev.prefetch.parquet.internal.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.api.Binary;

/**
 * The one adapter over parquet-hadoop's {@link ValuesReader}, for the encodings without a decoder
 * of our own (DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE booleans of page
 * v2): {@link ValuesDecoders} chooses it, and it serves the same bulk calls as our decoders,
 * looping over the reader value by value inside each call. Correct for everything parquet-hadoop
 * reads.
 */
final class HadoopValues implements ValuesDecoder {

  private final ValuesReader reader;

  HadoopValues(
      ColumnDescriptor column,
      Encoding encoding,
      Dictionary dictionary,
      int valueCount,
      ByteBuffer data) {
    this.reader =
        encoding.usesDictionary()
            ? encoding.getDictionaryBasedValuesReader(column, ValuesType.VALUES, dictionary)
            : encoding.getValuesReader(column, ValuesType.VALUES);
    try {
      reader.initFromPage(valueCount, ByteBufferInputStream.wrap(data));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + encoding + " values of " + column, e);
    }
  }

  @Override
  public void readInts(int[] out, int offset, int count) {
    for (int i = 0; i < count; i++) {
      out[offset + i] = reader.readInteger();
    }
  }

  @Override
  public void readLongs(long[] out, int offset, int count) {
    for (int i = 0; i < count; i++) {
      out[offset + i] = reader.readLong();
    }
  }

  @Override
  public void readFloats(float[] out, int offset, int count) {
    for (int i = 0; i < count; i++) {
      out[offset + i] = reader.readFloat();
    }
  }

  @Override
  public void readDoubles(double[] out, int offset, int count) {
    for (int i = 0; i < count; i++) {
      out[offset + i] = reader.readDouble();
    }
  }

  @Override
  public void readBooleans(boolean[] out, int offset, int count) {
    for (int i = 0; i < count; i++) {
      out[offset + i] = reader.readBoolean();
    }
  }

  @Override
  public void readBinary(BinaryBuilder out, int count) {
    for (int i = 0; i < count; i++) {
      Binary value = reader.readBytes();
      ByteBuffer buffer = value.toByteBuffer();
      if (buffer.hasArray()) {
        out.append(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
      } else {
        byte[] copy = value.getBytes();
        out.append(copy, 0, copy.length);
      }
    }
  }

  @Override
  public void skip(int count) {
    reader.skip(count);
  }
}
