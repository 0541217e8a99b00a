package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

/** Every branch of the one place that picks a page's values decoder from its encoding. */
class ValuesDecodersTest {

  private static ColumnDescriptor column(String type) {
    return MessageTypeParser.parseMessageType("message m { required " + type + " x; }")
        .getColumns()
        .get(0);
  }

  private static ValuesDecoders decoders(String type, DictionaryPage dictionary) {
    return new ValuesDecoders(column(type), () -> dictionary);
  }

  @Test
  void plainPagesGetOurPlainDecoder() {
    ValuesDecoder decoder = decoders("int32", null).forPage(Encoding.PLAIN, new byte[8], 0, 8, 2);

    assertThat(decoder).isInstanceOf(PlainValues.class);
  }

  @Test
  void dictionaryPagesGetOurDictionaryDecoderOverTheChunksDictionary() {
    byte[] entries = {7, 0, 0, 0, 9, 0, 0, 0}; // PLAIN int32 7, 9
    DictionaryPage dictionary = new DictionaryPage(BytesInput.from(entries), 2, Encoding.PLAIN);
    ValuesDecoders decoders = decoders("int32", dictionary);
    byte[] ids = {1, 0b0000_0011, 0b10}; // bit width 1, one bit-packed group: ids 0, 1

    for (Encoding encoding : new Encoding[] {Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY}) {
      ValuesDecoder decoder = decoders.forPage(encoding, ids, 0, ids.length, 2);
      int[] out = new int[2];
      decoder.read(out, 0, 2);

      assertThat(decoder).isInstanceOf(DictionaryValues.class);
      assertThat(out).containsExactly(7, 9);
    }
  }

  @Test
  void deltaBinaryPackedIntegersGetOurDeltaDecoder() {
    byte[] header = {(byte) 0x80, 0x01, 0x04, 0x00, 0x00}; // block 128, 4 miniblocks, 0 values

    for (String type : new String[] {"int32", "int64"}) {
      ValuesDecoder decoder =
          decoders(type, null).forPage(Encoding.DELTA_BINARY_PACKED, header, 0, header.length, 0);

      assertThat(decoder).isInstanceOf(DeltaBinaryPackedValues.class);
    }
  }

  @Test
  void byteStreamSplitPagesGetOurByteStreamSplitDecoder() {
    byte[] floats = {0, 0, (byte) 0x80, 0x3F}; // one float 1.0, a stream per byte
    ValuesDecoder split =
        decoders("float", null).forPage(Encoding.BYTE_STREAM_SPLIT, floats, 0, 4, 1);
    float[] value = new float[1];
    split.read(value, 0, 1);

    assertThat(split).isInstanceOf(ByteStreamSplitValues.class);
    assertThat(value).containsExactly(1.0f);
  }

  @Test
  void rleBooleansGetOurRleBooleanDecoder() {
    byte[] booleans = {2, 0, 0, 0, 4, 1}; // 2 bytes: an RLE run of two trues
    ValuesDecoder rle = decoders("boolean", null).forPage(Encoding.RLE, booleans, 0, 6, 2);
    boolean[] bits = new boolean[2];
    rle.read(bits, 0, 2);

    assertThat(rle).isInstanceOf(RleBooleanValues.class);
    assertThat(bits).containsExactly(true, true);
  }

  /** DELTA_LENGTH_BYTE_ARRAY of "ab", "c": lengths 2, 1 (first 2, min delta -1), then "abc". */
  private static final byte[] AB_C = {
    (byte) 0x80, 0x01, 0x04, 0x02, 0x04, 0x01, 0, 0, 0, 0, 'a', 'b', 'c'
  };

  /** Two values of a BINARY page, read after checking which decoder the encoding got. */
  private static BinaryBuilder twoBinaryValues(
      Encoding encoding, byte[] page, Class<? extends ValuesDecoder> expected) {
    ValuesDecoder decoder = decoders("binary", null).forPage(encoding, page, 0, page.length, 2);
    assertThat(decoder).isInstanceOf(expected);
    BinaryBuilder out = new BinaryBuilder(2, 8);
    decoder.readBinary(out, 2);
    return out;
  }

  /** The bytes of the first two values, back to back, as ASCII. */
  private static String bytesOfTwo(BinaryBuilder out) {
    return new String(out.data(), 0, out.offsets()[2], StandardCharsets.US_ASCII);
  }

  @Test
  void deltaLengthByteArraysGetOurDecoder() {
    BinaryBuilder out =
        twoBinaryValues(Encoding.DELTA_LENGTH_BYTE_ARRAY, AB_C, DeltaLengthByteArrayValues.class);

    assertThat(bytesOfTwo(out)).isEqualTo("abc");
    assertThat(out.offsets()).startsWith(0, 2, 3);
  }

  @Test
  void deltaByteArraysGetOurDecoderWhichRebuildsSharedPrefixes() {
    // prefixes 0, 1 (first 0, min delta 1), then the suffixes "ab", "c": values "ab", "ac"
    byte[] prefixes = {(byte) 0x80, 0x01, 0x04, 0x02, 0x00, 0x02, 0, 0, 0, 0};
    byte[] page = new byte[prefixes.length + AB_C.length];
    System.arraycopy(prefixes, 0, page, 0, prefixes.length);
    System.arraycopy(AB_C, 0, page, prefixes.length, AB_C.length);
    BinaryBuilder out =
        twoBinaryValues(Encoding.DELTA_BYTE_ARRAY, page, DeltaByteArrayValues.class);

    assertThat(bytesOfTwo(out)).isEqualTo("abac");
  }

  @Test
  void aDeltaByteArrayPageWithoutValuesStillHasTheFirstValueOfEachHeader() {
    // a page of nulls only: prefix lengths and suffix lengths, each a header of 0 values whose
    // first value is still written
    byte[] page = {(byte) 0x80, 0x01, 0x04, 0x00, 0x00, (byte) 0x80, 0x01, 0x04, 0x00, 0x00};
    ValuesDecoder decoder =
        decoders("binary", null).forPage(Encoding.DELTA_BYTE_ARRAY, page, 0, page.length, 3);
    BinaryBuilder out = new BinaryBuilder(1, 8);
    decoder.readBinary(out, 0);

    assertThat(out.size()).isZero();
  }

  @Test
  void anEncodingTheFormatDoesNotDefineForTheTypeIsRejected() {
    assertThatThrownBy(
            () ->
                decoders("float", null).forPage(Encoding.DELTA_BINARY_PACKED, new byte[8], 0, 8, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("DELTA_BINARY_PACKED is not an encoding of FLOAT values");
  }

  @Test
  void aDictionaryEncodedPageWithoutADictionaryPageIsRejected() {
    assertThatThrownBy(
            () ->
                decoders("int32", null)
                    .forPage(Encoding.RLE_DICTIONARY, new byte[] {1, 0}, 0, 2, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no dictionary page");
  }
}
