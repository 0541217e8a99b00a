package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.testing.OrcSurgery;
import dev.prefetch.spi.MemoryLedger;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;

/**
 * The streams of a real ORC file's stripes, found through its stripe footers, opened through the
 * stream layer; and each column's row index, parsed from its ROW_INDEX stream. What a stripe reader
 * will hand the column readers, here for tests.
 */
final class FileStreams implements AutoCloseable {

  private final byte[] file;
  private final OrcSurgery surgery;
  private final DecompressionContext context;

  FileStreams(byte[] file) throws IOException {
    this.file = file;
    this.surgery = new OrcSurgery(file);
    OrcProto.PostScript ps = surgery.postScript();
    this.context =
        new DecompressionContext(
            CompressionKind.valueOf(ps.getCompression().name()),
            (int) ps.getCompressionBlockSize(),
            MemoryLedger.NONE,
            64L << 20);
  }

  int stripes() {
    return surgery.footer().getStripesCount();
  }

  long stripeRows(int stripe) {
    return surgery.footer().getStripes(stripe).getNumberOfRows();
  }

  int rowIndexStride() {
    return surgery.footer().getRowIndexStride();
  }

  OrcProto.ColumnEncoding encoding(int stripe, int column) {
    return surgery.stripeFooter(stripe).getColumns(column);
  }

  /** Whether {@code column} uses RLE v2 in {@code stripe}. */
  boolean rleV2(int stripe, int column) {
    OrcProto.ColumnEncoding.Kind kind = encoding(stripe, column).getKind();
    return kind == OrcProto.ColumnEncoding.Kind.DIRECT_V2
        || kind == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2;
  }

  /** The stream, or null when the stripe has none of that kind for the column. */
  StreamInput open(int stripe, int column, OrcProto.Stream.Kind kind) {
    long position = surgery.footer().getStripes(stripe).getOffset();
    for (OrcProto.Stream stream : surgery.stripeFooter(stripe).getStreamsList()) {
      if (stream.getColumn() == column && stream.getKind() == kind) {
        return context.open(
            "stripe " + stripe + " column " + column + " " + kind,
            file,
            (int) position,
            (int) stream.getLength());
      }
      position += stream.getLength();
    }
    return null;
  }

  private final Map<Long, OrcProto.RowIndex> indexes = new HashMap<>();

  /** The column's row index in the stripe. */
  OrcProto.RowIndex rowIndex(int stripe, int column) throws IOException {
    long key = (long) stripe << 32 | column;
    OrcProto.RowIndex index = indexes.get(key);
    if (index == null) {
      try (StreamInput in = open(stripe, column, OrcProto.Stream.Kind.ROW_INDEX)) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (in.hasMore()) {
          bytes.write(in.array(), in.position(), in.remaining());
          in.position(in.limit());
        }
        index = OrcProto.RowIndex.parseFrom(bytes.toByteArray());
      }
      indexes.put(key, index);
    }
    return index;
  }

  @Override
  public void close() {
    context.close();
  }
}
