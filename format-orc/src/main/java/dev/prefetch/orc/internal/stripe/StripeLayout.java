package dev.prefetch.orc.internal.stripe;

import dev.prefetch.CorruptFileException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;

/**
 * Where each stream of one stripe lies in the file, and each column's encoding: what a stripe's
 * footer says, resolved once.
 *
 * <p>Stream offsets follow orc-core's reader: the stripe holds its index area (row indexes, bloom
 * filters), then its data area, each in footer order, the streams of encryption variants after the
 * unencrypted ones of each area. A footer lists them in that order anyway; a writer that listed
 * them otherwise would be read as orc-core reads it. Streams of the footer area (statistics) take
 * no bytes here, as in orc-core.
 *
 * <p>Immutable; shared by the range readers of a stripe.
 */
public final class StripeLayout {

  /** One stream: its column, kind, first byte in the file and length. */
  public record Stream(int column, OrcProto.Stream.Kind kind, long offset, long length) {

    /** The file offset just past the stream. */
    public long end() {
      return offset + length;
    }

    /** Whether the stream lies in the stripe's index area (row indexes, bloom filters). */
    public boolean index() {
      return indexArea(kind);
    }
  }

  private final OrcProto.StripeFooter footer;
  private final List<Stream> streams;
  private final Map<Long, Stream> byName;
  private final boolean[] encrypted;

  private StripeLayout(
      OrcProto.StripeFooter footer,
      List<Stream> streams,
      Map<Long, Stream> byName,
      boolean[] encrypted) {
    this.footer = footer;
    this.streams = Collections.unmodifiableList(streams);
    this.byName = byName;
    this.encrypted = encrypted;
  }

  /**
   * The layout of a stripe whose footer is {@code footer}, for a file of {@code columnCount}
   * columns.
   *
   * @param where the file and stripe, for messages ("ORC file f, stripe 2")
   * @throws CorruptFileException when a stream lies outside the stripe's index and data, or the
   *     footer has fewer column encodings than the file has columns
   */
  public static StripeLayout of(
      String where, StripeInformation stripe, OrcProto.StripeFooter footer, int columnCount)
      throws CorruptFileException {
    if (footer.getColumnsCount() < columnCount) {
      throw new CorruptFileException(
          "Corrupt "
              + where
              + ": its footer has encodings for "
              + footer.getColumnsCount()
              + " columns, the file has "
              + columnCount);
    }
    long dataEnd = stripe.getOffset() + stripe.getIndexLength() + stripe.getDataLength();
    List<Stream> streams = new ArrayList<>(footer.getStreamsCount());
    Map<Long, Stream> byName = new HashMap<>();
    boolean[] encrypted = new boolean[columnCount];
    long offset = stripe.getOffset();
    for (boolean index : new boolean[] {true, false}) {
      for (OrcProto.Stream stream : footer.getStreamsList()) {
        offset = add(where, stream, index, false, offset, dataEnd, streams, byName, encrypted);
      }
      for (OrcProto.StripeEncryptionVariant variant : footer.getEncryptionList()) {
        for (OrcProto.Stream stream : variant.getStreamsList()) {
          offset = add(where, stream, index, true, offset, dataEnd, streams, byName, encrypted);
        }
      }
    }
    return new StripeLayout(footer, streams, byName, encrypted);
  }

  /** Adds {@code stream} if it lies in the area asked for; returns the offset after it. */
  private static long add(
      String where,
      OrcProto.Stream stream,
      boolean indexArea,
      boolean inVariant,
      long offset,
      long dataEnd,
      List<Stream> streams,
      Map<Long, Stream> byName,
      boolean[] encrypted)
      throws CorruptFileException {
    OrcProto.Stream.Kind kind = stream.getKind();
    if (footerArea(kind)
        || indexArea(kind) != indexArea
        || kind == OrcProto.Stream.Kind.ENCRYPTED_INDEX
        || kind == OrcProto.Stream.Kind.ENCRYPTED_DATA) {
      return offset; // placeholders and statistics take no bytes of the stripe here
    }
    long length = stream.getLength();
    if (length < 0 || length > dataEnd - offset) {
      throw new CorruptFileException(
          "Corrupt "
              + where
              + ", column "
              + stream.getColumn()
              + ": its "
              + kind
              + " stream of "
              + length
              + " bytes at "
              + offset
              + " passes the stripe's index and data, which end at "
              + dataEnd);
    }
    int column = stream.getColumn();
    Stream located = new Stream(column, kind, offset, length);
    streams.add(located);
    byName.put(key(column, kind), located); // a repeated stream: the last wins, as in orc-core
    if (inVariant && column >= 0 && column < encrypted.length) {
      encrypted[column] = true;
    }
    return offset + length;
  }

  private static long key(int column, OrcProto.Stream.Kind kind) {
    return ((long) column << 8) | (kind.getNumber() & 0xFF);
  }

  /** Whether streams of {@code kind} lie in a stripe's index area. */
  static boolean indexArea(OrcProto.Stream.Kind kind) {
    return switch (kind) {
      case ROW_INDEX, DICTIONARY_COUNT, BLOOM_FILTER, BLOOM_FILTER_UTF8, ENCRYPTED_INDEX -> true;
      default -> false;
    };
  }

  private static boolean footerArea(OrcProto.Stream.Kind kind) {
    return kind == OrcProto.Stream.Kind.FILE_STATISTICS
        || kind == OrcProto.Stream.Kind.STRIPE_STATISTICS;
  }

  /** The stripe's footer. */
  public OrcProto.StripeFooter footer() {
    return footer;
  }

  /** Every stream with its place, in file order. */
  public List<Stream> streams() {
    return streams;
  }

  /** The stream of {@code kind} of {@code column}, or null when the stripe has none. */
  public Stream stream(int column, OrcProto.Stream.Kind kind) {
    return byName.get(key(column, kind));
  }

  /** The encoding of {@code column} in this stripe. */
  public OrcProto.ColumnEncoding encoding(int column) {
    return footer.getColumns(column);
  }

  /** Whether {@code column}'s streams are encrypted (in a variant of the footer). */
  public boolean encrypted(int column) {
    return column < encrypted.length && encrypted[column];
  }

  /** The writer's time zone, as the stripe's footer names it ("" when it names none). */
  public String writerTimezone() {
    return footer.getWriterTimezone();
  }
}
