package dev.prefetch.parquet.internal.check;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.parquet.internal.io.ForwardingSeekableInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The range reader's stream, which checks the page headers of the column chunks parquet-hadoop
 * reads through it ({@link PageHeaderCheck}) as soon as a chunk's last byte has arrived: inside the
 * read call, so before parquet-hadoop parses a header, and with no byte copied or read twice.
 *
 * <p>Protocol: the range reader {@link #arm arms} the stream with the spans of the row group it is
 * about to read (whole chunks; for a read of selected pages, the pages the offset index places,
 * added as parquet-hadoop asks for each index) and {@link #disarm disarms} it when parquet-hadoop
 * returns. parquet-hadoop reads a run of consecutive chunks with one seek and one {@code readFully}
 * per buffer (or one vectored range per run); the stream keeps views of the buffers filled since
 * the last seek and checks every armed span they now hold whole. Disarmed, it only forwards.
 *
 * <p>Confined to the range reader's thread, but for vectored reads, whose ranges are checked on
 * whichever thread completes them, against a snapshot of the armed spans.
 */
public final class PageCheckingStream extends ForwardingSeekableInputStream {

  private final DataFile file;
  private boolean armed;
  private String where = "";

  /** Armed spans not yet seen whole; empty when disarmed. */
  private List<PageHeaderCheck.Span> pending = new ArrayList<>();

  /** File position of the first and after the last byte read since the last seek, or -1. */
  private long regionStart = -1;

  private long regionEnd = -1;

  /** Views of the bytes read since the last seek, in order. */
  private final List<ByteBuffer> region = new ArrayList<>();

  public PageCheckingStream(SeekableInputStream in, DataFile file) {
    super(in);
    this.file = file;
  }

  /** Checks {@code spans} as their bytes are read; {@code where} names the read in messages. */
  public void arm(String where, List<PageHeaderCheck.Span> spans) {
    armed = true;
    this.where = where;
    pending = new ArrayList<>(spans);
    clearRegion();
  }

  /**
   * While armed, adds the pages {@code index} places in {@code chunk} (and its dictionary page
   * before them): a read of selected pages reads those and no whole chunk.
   */
  public void addPages(ColumnChunkMetaData chunk, OffsetIndex index) {
    if (!armed || index == null || index.getPageCount() == 0) {
      return;
    }
    long first = index.getOffset(0);
    if (chunk.getStartingPos() < first) {
      pending.add(new PageHeaderCheck.Span(chunk.getStartingPos(), first, chunk, where));
    }
    for (int i = 0; i < index.getPageCount(); i++) {
      long offset = index.getOffset(i);
      long size = index.getCompressedPageSize(i);
      if (offset >= 0 && size > 0) {
        pending.add(new PageHeaderCheck.Span(offset, offset + size, chunk, where));
      }
    }
  }

  /** Stops checking and drops every view of a read's buffers. */
  public void disarm() {
    armed = false;
    pending = new ArrayList<>();
    clearRegion();
  }

  private void clearRegion() {
    region.clear();
    regionStart = -1;
    regionEnd = -1;
  }

  @Override
  public void readFully(ByteBuffer buf) throws IOException {
    if (pending.isEmpty()) {
      in.readFully(buf);
      return;
    }
    long position = in.getPos();
    int from = buf.position();
    in.readFully(buf);
    ByteBuffer got = buf.duplicate();
    got.position(from);
    got.limit(buf.position());
    arrived(position, got.slice());
  }

  /** Records bytes read at {@code position} and checks every armed span they complete. */
  private void arrived(long position, ByteBuffer bytes) throws CorruptFileException {
    if (position != regionEnd) {
      region.clear();
      regionStart = position;
    }
    region.add(bytes);
    regionEnd = position + bytes.remaining();
    for (Iterator<PageHeaderCheck.Span> it = pending.iterator(); it.hasNext(); ) {
      PageHeaderCheck.Span span = it.next();
      if (span.start() >= regionStart && span.end() <= regionEnd) {
        it.remove();
        PageHeaderCheck.check(file, span, bytesOf(span));
      }
    }
  }

  /** The region's bytes of {@code span}. */
  private PageHeaderCheck.SpanBytes bytesOf(PageHeaderCheck.Span span) {
    return (offset, length) -> regionBytes(span.start() + offset, length);
  }

  /**
   * {@code length} bytes of the region at file position {@code from}: a view of the read buffer
   * that holds them all, else (a header across two buffers) a copy.
   */
  private ByteBuffer regionBytes(long from, int length) {
    long at = regionStart;
    ByteBuffer copy = null;
    for (ByteBuffer buffer : region) {
      long bufferEnd = at + buffer.remaining();
      if (copy == null && from >= at && from + length <= bufferEnd) {
        return buffer.slice(buffer.position() + (int) (from - at), length);
      }
      long start = Math.max(at, from);
      long end = Math.min(bufferEnd, from + length);
      if (start < end) {
        if (copy == null) {
          copy = ByteBuffer.allocate(length);
        }
        copy.put(
            (int) (start - from),
            buffer,
            buffer.position() + (int) (start - at),
            (int) (end - start));
      }
      at = bufferEnd;
    }
    return copy == null ? ByteBuffer.allocate(0) : copy;
  }

  @Override
  public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
      throws IOException {
    in.readVectored(ranges, allocator);
    if (pending.isEmpty()) {
      return;
    }
    List<PageHeaderCheck.Span> spans = List.copyOf(pending);
    for (ParquetFileRange range : ranges) {
      long start = range.getOffset();
      long end = start + range.getLength();
      List<PageHeaderCheck.Span> inside = new ArrayList<>();
      for (PageHeaderCheck.Span span : spans) {
        if (span.start() >= start && span.end() <= end) {
          inside.add(span);
        }
      }
      if (!inside.isEmpty()) {
        range.setDataReadFuture(
            range
                .getDataReadFuture()
                .thenApply(
                    buffer -> {
                      for (PageHeaderCheck.Span span : inside) {
                        ByteBuffer part = buffer.duplicate();
                        part.position(buffer.position() + (int) (span.start() - start));
                        part.limit(buffer.position() + (int) (span.end() - start));
                        try {
                          PageHeaderCheck.check(
                              file, span, PageHeaderCheck.SpanBytes.of(part.slice()));
                        } catch (CorruptFileException e) {
                          throw new UncheckedIOException(e);
                        }
                      }
                      return buffer;
                    }));
      }
    }
  }
}
