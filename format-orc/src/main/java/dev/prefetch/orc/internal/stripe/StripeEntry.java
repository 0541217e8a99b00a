package dev.prefetch.orc.internal.stripe;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.CorruptFileException;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.metadata.OrcChecks;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;

/**
 * One stripe as a plan's range readers share it: its footer, row indexes, row group selection,
 * bytes and dictionaries, each computed once by the first reader that needs it ({@link Once}), with
 * that reader's stream and codec ({@link StripeIo}).
 *
 * <h2>What is read</h2>
 *
 * <ul>
 *   <li>A stripe read whole (every row group, no predicate): the streams of the read's columns,
 *       index and data (not bloom filters), as one set of {@link StripeBytes}, so that on remote
 *       storage the stripe is one request after its footer; the row index, when a range starting
 *       inside the stripe needs it, is parsed from those bytes.
 *   <li>A stripe read in part (row ranges, or a predicate): first the row indexes of the read's
 *       columns and of the predicate's (with the predicate's bloom filters); the predicate's row
 *       groups are chosen from them ({@link RowGroupFilter}); then of each data stream only the
 *       bytes from the first row group any of the plan's ranges of the stripe reads to the last
 *       (their row index positions bound them, plus the run or the compression blocks that straddle
 *       the end), and the dictionaries whole.
 * </ul>
 *
 * <h2>Threads and memory</h2>
 *
 * Each value is a {@link Once}: the first reader computes it, the others wait for it
 * (interruptibly). Bytes are held by {@link StripeBytes}, which counts them in the ledger of the
 * reader that loaded them; a dictionary counts in the ledger of the reader that decoded it. {@link
 * #release()} (the plan's last range of the stripe is read, or the plan closes) stops counting
 * both; readers that still hold vectors or windows over them keep only those alive.
 */
public final class StripeEntry implements StripeEntries.Held {

  /** Extra compression blocks read past a row group's start, for the runs that straddle it. */
  private static final int MAX_STRADDLING_RUN_BYTES = 8 << 10;

  /** Bytes read past a row group's start in an uncompressed stream: the longest run and more. */
  private static final int UNCOMPRESSED_SLOP_BYTES = 16 << 10;

  /** A stripe's data bytes and where each stream's needed part lies. */
  private record DataBytes(StripeBytes bytes, Map<StripeLayout.Stream, long[]> parts) {}

  /** A value shared with its size, counted in a reader's ledger while the stripe is held. */
  public record Sized<T>(T value, long bytes) {}

  /** Computes a shared value of a column (decodes a dictionary), reading the stripe's streams. */
  @FunctionalInterface
  public interface SharedValue<T> {
    Sized<T> compute() throws IOException;
  }

  private final StripeReads.Settings settings;
  private final int stripe;
  private final StripeInformation info;
  private final String where;

  /** Whether the stripe is read whole: every row group, no predicate. */
  private final boolean whole;

  private final Once<StripeLayout> layout = new Once<>();
  private final Once<StripeBytes> indexBytes = new Once<>();
  private final Once<RowIndexes> rowIndexes = new Once<>();
  private final Once<Optional<boolean[]>> selection = new Once<>();
  private final Once<DataBytes> dataBytes = new Once<>();
  private final ConcurrentHashMap<Integer, Once<Object>> shared = new ConcurrentHashMap<>();

  /** Ledgers and bytes of the shared values counted, until {@link #release()}. */
  @GuardedBy("this")
  private final List<Object[]> counted = new ArrayList<>();

  @GuardedBy("this")
  private boolean released;

  StripeEntry(StripeReads.Settings settings, int stripe) {
    this.settings = settings;
    this.stripe = stripe;
    this.info = settings.stripes().get(stripe);
    this.where = settings.where(stripe);
    boolean[] needed = settings.neededStrides()[stripe];
    this.whole = needed == null || settings.rowIndexStride() <= 0;
  }

  /** The stripe's index in the file. */
  public int index() {
    return stripe;
  }

  /** "ORC file f, stripe 2", for messages. */
  public String where() {
    return where;
  }

  /** The stripe's row groups; 0 without a row index. */
  public int strides() {
    return settings.strides(stripe);
  }

  /** The stripe's rows. */
  public long rows() {
    return info.getNumberOfRows();
  }

  /** The stripe's footer, as a layout of its streams: read and parsed once. */
  public StripeLayout layout(StripeIo io) throws IOException {
    return layout.get(() -> readLayout(io));
  }

  private StripeLayout readLayout(StripeIo io) throws IOException {
    long offset = info.getOffset() + info.getIndexLength() + info.getDataLength();
    int length = Math.toIntExact(info.getFooterLength()); // checked against the file when planned
    byte[] bytes = new byte[length];
    io.in().readFully(offset, bytes, 0, length);
    OrcProto.StripeFooter footer;
    try (StreamInput in = io.decompression().open("footer", bytes, 0, length)) {
      footer = OrcProto.StripeFooter.parseFrom(in.readAll());
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          "Corrupt " + where + ": its footer does not decode: " + e.getMessage(), e);
    }
    OrcChecks.checkStripeFooter(settings.file(), stripe, info, footer, settings.compression());
    int columns = settings.schema().getMaximumId() + 1;
    StripeLayout parsed = StripeLayout.of(where, info, footer, columns);
    for (int column = 0; column < columns; column++) {
      if (settings.include()[column] && parsed.encrypted(column)) {
        throw new CorruptFileException(
            where
                + ", column "
                + column
                + ": the column is encrypted, and this reader does not decrypt ORC columns");
      }
    }
    return parsed;
  }

  /** The row indexes of the read's columns (and the predicate's): parsed once. */
  public RowIndexes rowIndexes(StripeIo io) throws IOException {
    return rowIndexes.get(() -> parseRowIndexes(io));
  }

  private RowIndexes parseRowIndexes(StripeIo io) throws IOException {
    StripeLayout streams = layout(io);
    boolean[] columns = settings.include().clone();
    boolean[] blooms = null;
    RowGroupFilter filter = settings.filter();
    if (filter != null) {
      for (int c = 0; c < columns.length; c++) {
        columns[c] |= filter.columns()[c];
      }
      blooms = filter.bloomFilters() ? filter.columns() : null;
    }
    StripeBytes bytes = whole ? dataBytes(io).bytes() : indexBytes(io, columns, blooms);
    return RowIndexes.parse(
        where,
        streams,
        columns,
        blooms,
        stream -> {
          StripeBytes.Window window =
              bytes.window(stream.offset(), stream.end(), io.in(), io.ledger());
          return io.decompression()
              .open(
                  "column " + stream.column() + " " + stream.kind(),
                  window.array(),
                  window.offset(),
                  (int) stream.length());
        },
        io.decompression());
  }

  /** The bytes of the index streams of {@code columns} and the bloom filters of {@code blooms}. */
  private StripeBytes indexBytes(StripeIo io, boolean[] columns, boolean[] blooms)
      throws IOException {
    return indexBytes.get(
        () -> {
          StripeLayout streams = layout(io);
          OrcProto.Stream.Kind[] kinds = RowIndexes.bloomKinds(streams, columns.length);
          List<long[]> ranges = new ArrayList<>();
          for (StripeLayout.Stream stream : streams.streams()) {
            int column = stream.column();
            if (column < 0 || column >= columns.length || stream.length() == 0) {
              continue;
            }
            boolean wanted =
                (stream.kind() == OrcProto.Stream.Kind.ROW_INDEX && columns[column])
                    || (blooms != null && blooms[column] && stream.kind() == kinds[column]);
            if (wanted) {
              ranges.add(new long[] {stream.offset(), stream.end()});
            }
          }
          return bytesOf(ranges);
        });
  }

  private StripeBytes bytesOf(List<long[]> ranges) {
    long[] starts = new long[ranges.size()];
    long[] ends = new long[ranges.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = ranges.get(i)[0];
      ends[i] = ranges.get(i)[1];
    }
    return new StripeBytes(settings.file(), starts, ends, settings.together());
  }

  /**
   * The row groups the predicate may select: null for every one (no predicate, or one that keeps
   * them all), else one flag per row group. Chosen once.
   */
  public boolean[] selection(StripeIo io) throws IOException {
    return selection
        .get(
            () -> {
              RowGroupFilter filter = settings.filter();
              if (filter == null || settings.rowIndexStride() <= 0) {
                return Optional.empty();
              }
              RowIndexes indexes = rowIndexes(io);
              boolean[] picked =
                  filter.select(where, info, indexes, layout(io).footer().getColumnsList());
              return Optional.ofNullable(picked);
            })
        .orElse(null);
  }

  private DataBytes dataBytes(StripeIo io) throws IOException {
    return dataBytes.get(() -> whole ? wholeBytes(io) : partBytes(io));
  }

  /** Every stream of the read's columns, index and data, but bloom filters. */
  private DataBytes wholeBytes(StripeIo io) throws IOException {
    StripeLayout streams = layout(io);
    boolean[] include = settings.include();
    List<long[]> ranges = new ArrayList<>();
    Map<StripeLayout.Stream, long[]> parts = new HashMap<>();
    for (StripeLayout.Stream stream : streams.streams()) {
      int column = stream.column();
      boolean bloom =
          stream.kind() == OrcProto.Stream.Kind.BLOOM_FILTER
              || stream.kind() == OrcProto.Stream.Kind.BLOOM_FILTER_UTF8;
      if (bloom
          || stream.length() == 0
          || column < 0
          || column >= include.length
          || !include[column]) {
        continue;
      }
      long[] part = {stream.offset(), stream.end()};
      ranges.add(part);
      parts.put(stream, part);
    }
    return new DataBytes(bytesOf(ranges), parts);
  }

  /**
   * Of each data stream of the read's columns, the bytes from the first row group any of the plan's
   * ranges of this stripe reads (and the predicate selects) to the last; dictionaries whole.
   */
  private DataBytes partBytes(StripeIo io) throws IOException {
    StripeLayout streams = layout(io);
    int strides = strides();
    boolean[] needed = settings.neededStrides()[stripe].clone();
    boolean[] picked = selection(io);
    int first = -1;
    int last = -1;
    for (int s = 0; s < strides && s < needed.length; s++) {
      if (needed[s] && (picked == null || (s < picked.length && picked[s]))) {
        first = first < 0 ? s : first;
        last = s;
      }
    }
    Map<StripeLayout.Stream, long[]> parts = new HashMap<>();
    List<long[]> ranges = new ArrayList<>();
    if (first < 0) {
      return new DataBytes(bytesOf(ranges), parts); // no row group of the stripe is read
    }
    RowIndexes indexes = first > 0 || last < strides - 1 ? rowIndexes(io) : null;
    boolean[] include = settings.include();
    boolean compressed = settings.compression() != CompressionKind.NONE;
    long slop = slopBytes();
    Map<Integer, List<StreamPositions.Part>> positioned = new HashMap<>();
    for (StripeLayout.Stream stream : streams.streams()) {
      int column = stream.column();
      if (stream.index()
          || stream.length() == 0
          || column < 0
          || column >= include.length
          || !include[column]) {
        continue;
      }
      long from = stream.offset();
      long to = stream.end();
      if (indexes != null) {
        List<StreamPositions.Part> columnParts =
            positioned.computeIfAbsent(
                column, c -> positions(streams, settings.schema().findSubtype(c), compressed));
        int at = positionOf(columnParts, stream.kind());
        if (at >= 0) {
          if (first > 0) {
            long start = indexes.position(column, first, at);
            if (start >= 0 && start <= stream.length()) {
              from = stream.offset() + start;
            }
          }
          if (last < strides - 1) {
            long end = indexes.position(column, last + 1, at);
            if (end >= 0 && end <= stream.length()) {
              to = Math.min(stream.end(), stream.offset() + end + slop);
            }
          }
          if (to < from) {
            from = stream.offset(); // positions that disagree: read the whole stream
            to = stream.end();
          }
        }
      }
      long[] part = {from, to};
      ranges.add(part);
      parts.put(stream, part);
    }
    return new DataBytes(bytesOf(ranges), parts);
  }

  /** The positioned streams of a column in this stripe, or an empty list when unknown. */
  private List<StreamPositions.Part> positions(
      StripeLayout streams, TypeDescription type, boolean compressed) {
    int column = type.getId();
    boolean present = streams.stream(column, OrcProto.Stream.Kind.PRESENT) != null;
    List<StreamPositions.Part> parts =
        StreamPositions.of(
            type, streams.encoding(column).getKind(), present, compressed, settings.decimal64());
    return parts == null ? List.of() : parts;
  }

  private static int positionOf(List<StreamPositions.Part> parts, OrcProto.Stream.Kind kind) {
    for (StreamPositions.Part part : parts) {
      if (part.kind() == kind) {
        return part.first();
      }
    }
    return -1;
  }

  /**
   * Bytes read past the position of the first row group not read: the run there may hold the last
   * values read, and straddle compression blocks.
   */
  private long slopBytes() {
    if (settings.compression() == CompressionKind.NONE) {
      return UNCOMPRESSED_SLOP_BYTES;
    }
    long block = settings.blockSize() + 3L;
    long blocks = 2 + (MAX_STRADDLING_RUN_BYTES + settings.blockSize() - 1) / settings.blockSize();
    return blocks * block;
  }

  /**
   * Issues the reads of the stripe's bytes the plan needs, without waiting for them (remote
   * storage, where they then arrive while the reader decodes): the footer and, for a stripe read in
   * part, its row indexes are read first, as the bytes needed depend on them. If the issued read
   * fails, the reader that needs its bytes raises the failure ({@link StripeBytes#readAhead}).
   */
  public void readAhead(StripeIo io) throws IOException {
    dataBytes(io).bytes().readAhead(io.in(), io.ledger());
  }

  /**
   * The stream of {@code kind} of {@code column}, opened over the part of it the plan reads (its
   * bytes loaded first, or waited for); null when the stripe has no such stream or it is empty.
   *
   * @param io the reader's stream, codec and ledger
   * @param name the stream's name in errors ("column 3 DATA")
   */
  public StreamInput open(StripeIo io, int column, OrcProto.Stream.Kind kind, String name)
      throws IOException {
    StripeLayout streams = layout(io);
    StripeLayout.Stream stream = streams.stream(column, kind);
    if (stream == null || stream.length() == 0) {
      return null;
    }
    DataBytes data = dataBytes(io);
    long[] part = data.parts().get(stream);
    if (part == null) {
      throw new IllegalStateException(
          where + ": the " + kind + " stream of column " + column + " is not among the read's");
    }
    StripeBytes.Window window = data.bytes().window(part[0], part[1], io.in(), io.ledger());
    return io.decompression()
        .openPart(
            name,
            window.array(),
            window.offset(),
            part[0] - stream.offset(),
            part[1] - stream.offset());
  }

  /**
   * A value of {@code column} that every reader of the stripe shares (its dictionary): computed by
   * the first reader that asks, its size counted in that reader's ledger while the stripe is held.
   */
  @SuppressWarnings("unchecked") // each column's value is made by one kind of computation
  public <T> T shared(int column, MemoryLedger ledger, SharedValue<T> computation)
      throws IOException {
    Once<Object> once = shared.computeIfAbsent(column, c -> new Once<>());
    return (T)
        once.get(
            () -> {
              Sized<T> made = computation.compute();
              count(ledger, made.bytes());
              return made.value();
            });
  }

  private synchronized void count(MemoryLedger ledger, long bytes) {
    if (!released && bytes > 0) {
      ledger.acquire(bytes);
      counted.add(new Object[] {ledger, bytes});
    }
  }

  /** The stripe is dropped: what it holds no longer counts. */
  @Override
  public void release() {
    StripeBytes index = indexBytes.peek();
    if (index != null) {
      index.release();
    }
    DataBytes data = dataBytes.peek();
    if (data != null) {
      data.bytes().release();
    }
    synchronized (this) {
      released = true;
      for (Object[] entry : counted) {
        ((MemoryLedger) entry[0]).release((Long) entry[1]);
      }
      counted.clear();
    }
  }
}
