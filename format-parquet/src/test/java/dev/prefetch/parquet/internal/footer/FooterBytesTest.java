package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.spi.ScanCounters;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;

/** Footers longer than one read request come in bounded requests, byte for byte. */
class FooterBytesTest {

  private static final int FOOTER_BYTES = 2 * FooterBytes.READ_CHUNK_BYTES + 12_345;

  private final List<Integer> requests = new ArrayList<>();

  @Test
  void longFooterIsReadInRequestsOfAtMostTheChunkSize() throws Exception {
    byte[] footer = pattern(FOOTER_BYTES);
    byte[] file = file(footer, "PAR1");

    FooterBytes read;
    try (SeekableInputStream in = new ArrayStream(file, requests)) {
      read = FooterBytes.read(in, file.length, "long.parquet");
    }

    assertThat(read.encrypted()).isFalse();
    assertThat(read.metadata()).isEqualTo(ByteBuffer.wrap(footer));
    assertThat(requests)
        .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(FooterBytes.READ_CHUNK_BYTES));
    assertThat(requests.stream().mapToLong(Integer::longValue).sum())
        .isEqualTo(FooterBytes.TRAILER_BYTES + FOOTER_BYTES);
  }

  @Test
  void footerReaderReadsTheHeadBeyondItsTailInBoundedRequests() throws Exception {
    byte[] footer = pattern(FOOTER_BYTES);
    byte[] file = file(footer, "PAR1");
    ScanCounters counters = new ScanCounters();
    FooterReader reader =
        new FooterReader(
            DataFile.of(java.nio.file.Path.of("/long.parquet")),
            input(file),
            file.length,
            counters);

    byte[] read = reader.footerBytes(null, null);

    assertThat(read).isEqualTo(footer);
    assertThat(requests)
        .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(FooterBytes.READ_CHUNK_BYTES));
    // the speculative tail, then the head before it: each footer byte and the trailer once
    assertThat(counters.get(ScanCounters.FOOTER_BYTES_READ))
        .isEqualTo(FOOTER_BYTES + FooterBytes.TRAILER_BYTES);
  }

  @Test
  void footerLengthBeyondTheFileIsCorruptBeforeAnyLargeRead() {
    byte[] file = file(pattern(100), "PAR1");
    ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(file.length - 8, 1 << 30);

    assertThatThrownBy(
            () -> {
              try (SeekableInputStream in = new ArrayStream(file, requests)) {
                FooterBytes.read(in, file.length, "bad.parquet");
              }
            })
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("bad.parquet")
        .hasMessageContaining("does not fit");
    assertThat(requests).containsExactly(FooterBytes.TRAILER_BYTES);
  }

  private static byte[] pattern(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (i * 31 + (i >>> 13));
    }
    return bytes;
  }

  /** "PAR1", footer, its length, magic. */
  private static byte[] file(byte[] footer, String magic) {
    ByteBuffer file = ByteBuffer.allocate(4 + footer.length + 8).order(ByteOrder.LITTLE_ENDIAN);
    file.put("PAR1".getBytes(StandardCharsets.US_ASCII))
        .put(footer)
        .putInt(footer.length)
        .put(magic.getBytes(StandardCharsets.US_ASCII));
    return file.array();
  }

  private InputFile input(byte[] file) {
    return new InputFile() {
      @Override
      public long getLength() {
        return file.length;
      }

      @Override
      public SeekableInputStream newStream() {
        return new ArrayStream(file, requests);
      }
    };
  }

  /** A stream over an array that records the length of every bulk read. */
  private static final class ArrayStream extends SeekableInputStream {
    private final byte[] file;
    private final List<Integer> requests;
    private int pos;

    ArrayStream(byte[] file, List<Integer> requests) {
      this.file = file;
      this.requests = requests;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void seek(long newPos) {
      pos = Math.toIntExact(newPos);
    }

    @Override
    public int read() {
      return pos < file.length ? file[pos++] & 0xff : -1;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      requests.add(len);
      if (len > file.length - pos) {
        throw new EOFException("read past the end");
      }
      System.arraycopy(file, pos, bytes, start, len);
      pos += len;
    }

    @Override
    public int read(ByteBuffer buf) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void readFully(ByteBuffer buf) {
      throw new UnsupportedOperationException();
    }
  }
}
