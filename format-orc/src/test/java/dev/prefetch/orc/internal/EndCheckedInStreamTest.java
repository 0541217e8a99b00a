package dev.prefetch.orc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.OrcCodecPool;
import org.apache.orc.impl.RunLengthIntegerReaderV2;
import org.apache.orc.impl.StreamName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * orc-core's own decoders over streams whose bytes end before their runs do: without the check each
 * of these loops spins for minutes to hours; with it each ends at once.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class EndCheckedInStreamTest {

  private static final StreamName NAME = new StreamName(1, OrcProto.Stream.Kind.DATA);

  /** An RLE v2 DIRECT header: 64-bit values, a run of 512, which needs 4,096 more bytes. */
  private static final byte[] DIRECT_64_BIT_RUN_OF_512 = {0x7f, (byte) 0xff, 1, 2, 3};

  /** An RLE v2 DIRECT header: 16-bit values, a run of 3 (no full block of 8), needing 6 bytes. */
  private static final byte[] DIRECT_16_BIT_RUN_OF_3 = {0x5e, 0x02, 1};

  private static InStream uncompressed(byte[] bytes) {
    return InStream.create(NAME, new BufferChunk(ByteBuffer.wrap(bytes), 0), 0, bytes.length);
  }

  /** A compressed stream of one chunk stored as is (the header's low bit set). */
  private static InStream compressed(byte[] bytes) {
    ByteBuffer chunk = ByteBuffer.allocate(bytes.length + 3);
    int header = bytes.length << 1 | 1;
    chunk.put((byte) header).put((byte) (header >> 8)).put((byte) (header >> 16)).put(bytes);
    chunk.flip();
    return InStream.create(
        NAME,
        new BufferChunk(chunk, 0),
        0,
        chunk.remaining(),
        InStream.options()
            .withCodec(OrcCodecPool.getCodec(CompressionKind.ZLIB))
            .withBufferSize(1 << 16));
  }

  private static InStream checked(InStream stream) {
    return new EndCheckedInStream(NAME, stream);
  }

  @Test
  void runOfFullBlocksPastAnUncompressedStreamEndFailsInsteadOfSpinning() throws IOException {
    RunLengthIntegerReaderV2 decoder =
        new RunLengthIntegerReaderV2(checked(uncompressed(DIRECT_64_BIT_RUN_OF_512)), true, false);
    assertThatThrownBy(decoder::next)
        .isInstanceOf(StreamEndException.class)
        .hasMessageContaining("column 1 kind DATA");
  }

  @Test
  void runOfFullBlocksPastACompressedStreamEndFailsInsteadOfSpinning() throws IOException {
    RunLengthIntegerReaderV2 decoder =
        new RunLengthIntegerReaderV2(checked(compressed(DIRECT_64_BIT_RUN_OF_512)), true, false);
    assertThatThrownBy(decoder::next).isInstanceOf(StreamEndException.class);
  }

  @Test
  void shortRunPastTheStreamEndFailsInsteadOfSpinning() throws IOException {
    RunLengthIntegerReaderV2 decoder =
        new RunLengthIntegerReaderV2(checked(uncompressed(DIRECT_16_BIT_RUN_OF_3)), false, false);
    assertThatThrownBy(decoder::next).isInstanceOf(StreamEndException.class);
  }

  /** The loop of orc-core's double, string and binary readers when they skip rows. */
  @Test
  void skippingPastTheStreamEndFailsInsteadOfSpinning() {
    InStream stream = checked(uncompressed(new byte[16]));
    assertThatThrownBy(
            () -> {
              long toSkip = 64;
              while (toSkip > 0) {
                toSkip -= stream.skip(toSkip);
              }
            })
        .isInstanceOf(StreamEndException.class);
  }

  @Test
  void firstReadAtTheEndStillAnswersEndOfStream() throws IOException {
    InStream stream = checked(uncompressed(new byte[] {7, 8}));
    byte[] buffer = new byte[4];
    assertThat(stream.read(buffer, 0, 4)).isEqualTo(2);
    assertThat(stream.read(buffer, 0, 4)).isEqualTo(-1);
    assertThatThrownBy(stream::read).isInstanceOf(StreamEndException.class);
  }

  @Test
  void seekAfterTheEndAllowsReadingAgain() throws IOException {
    InStream stream = checked(compressed(new byte[] {7, 8}));
    stream.skip(2);
    assertThat(stream.read()).isEqualTo(-1);
    stream.seek(positions(0, 1)); // the chunk at 0, its byte 1
    assertThat(stream.read()).isEqualTo(8);
    assertThat(stream.read()).isEqualTo(-1);
    assertThatThrownBy(stream::read).isInstanceOf(StreamEndException.class);
  }

  @Test
  void validRunsDecodeAsWithoutTheCheck() throws IOException {
    // SHORT_REPEAT: width 1 byte, 3 repeats of 5; then DIRECT 8-bit run of 2: 9, 10.
    byte[] runs = {0x00, 10, 0x4e, 0x01, 18, 20};
    RunLengthIntegerReaderV2 plain = new RunLengthIntegerReaderV2(uncompressed(runs), true, false);
    RunLengthIntegerReaderV2 checked =
        new RunLengthIntegerReaderV2(checked(uncompressed(runs)), true, false);
    for (int i = 0; i < 5; i++) {
      assertThat(checked.next()).isEqualTo(plain.next());
    }
    assertThat(checked.hasNext()).isFalse();
  }

  /** A later orc-core or JDK could take the guard's hook away; then this fails first. */
  @Test
  void recordReadersOfThisOrcCoreAndJdkGetEndCheckedStreams() {
    assertThat(CheckedRecordReader.isGuardAvailable()).isTrue();
  }

  /** A seek position in a compressed stream: where its chunk starts, then the offset in it. */
  private static org.apache.orc.impl.PositionProvider positions(long... values) {
    int[] next = {0};
    return () -> values[next[0]++];
  }
}
