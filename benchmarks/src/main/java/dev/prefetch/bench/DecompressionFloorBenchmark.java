package dev.prefetch.bench;

import dev.prefetch.parquet.internal.codec.PageCodecs;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.testkit.gen.Tables;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor of a Parquet scan: the time to read and decompress every page of the selected columns
 * (no decoding), and the time to copy the decompressed bytes once, with the threads of the scan it
 * is set beside, on the same local files as {@link ScanBenchmark} ({@code scan}: {@code
 * scan.parquet}, every column) and {@link LineitemBenchmark} ({@code lineitem-GROUP}: the
 * DuckDB-written lineitem file, every column or a column group). {@code bin/bench --report} sets
 * every local Parquet figure beside the floor of its file, columns and thread count (producers for
 * ours, threads for the others) as a ratio.
 *
 * <ul>
 *   <li>{@code decompress}: each thread takes the next column chunk not yet taken (the chunks of
 *       every row group, in file order), reads its bytes with one positional read, parses each page
 *       header (parquet-format's Thrift) and decompresses the page (a data page v2's data section
 *       alone; its levels are not compressed) with our reader's codecs, {@link
 *       PageCodecs#forReader}: SNAPPY through snappy-java's native {@code Snappy.uncompress} from
 *       the heap into an array of the thread's {@link ByteArrayPool} (given back after, as our page
 *       reader gives a page back), legacy LZ4 through aircompressor, BROTLI through brotli4j, every
 *       other codec through parquet-hadoop's factory. The chunks, not whole row groups, are the
 *       unit shared, so that a file of few row groups keeps every thread busy, as our producers'
 *       page-aligned slices do.
 *   <li>{@code copy}: the decompressed pages, made in the setup and held in memory, copied once
 *       each ({@link System#arraycopy}) into a buffer of the thread, chunks shared as above: one
 *       pass over the decompressed bytes from memory, the least a decoder that reads every byte
 *       costs.
 * </ul>
 *
 * <p>Each scan returns the bytes it produced, which the setup checks against the footer's
 * uncompressed sizes (the copy: against the pages it holds), and reads a byte of each page. Six
 * warm-up scans: decompression is native code, flat after the first. Run alone: {@code bin/bench
 * DecompressionFloorBenchmark}.
 */
@Warmup(iterations = 6)
public class DecompressionFloorBenchmark extends SingleShotScans {

  /** {@code scan}: {@code scan.parquet}; {@code lineitem-GROUP}: the lineitem Parquet file. */
  @Param({
    "scan",
    "lineitem-all",
    "lineitem-integers",
    "lineitem-decimals",
    "lineitem-dates",
    "lineitem-strings",
    "lineitem-comment"
  })
  public String table;

  @Param({"1", "2"})
  public int threads;

  /** {@code decompress} or {@code copy}. */
  @Param({"decompress", "copy"})
  public String work;

  /** One column chunk: where its pages lie, its codec, and its pages' uncompressed bytes. */
  private record Chunk(long start, int length, CompressionCodecName codec, long uncompressed) {}

  private Path file;
  private List<Chunk> chunks;
  private long expectedBytes;
  private ExecutorService pool;

  /** {@code copy}: every chunk's decompressed pages. */
  private List<List<byte[]>> decompressed;

  /** A byte of each page, summed, so that no page's bytes are left unread (racy: any value). */
  private volatile long sink;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    List<String> columns;
    if (table.equals("scan")) {
      HeapProfiler.rowsPerOperation(DecompressionFloorBenchmark.class, BenchData.rows());
      file = BenchData.scanFile("parquet");
      columns = List.of(Tables.SCAN_COLUMNS);
    } else if (table.startsWith("lineitem-")) {
      HeapProfiler.rowsPerOperation(DecompressionFloorBenchmark.class, LineitemData.rows());
      file = LineitemData.parquetFile();
      columns = LineitemData.columns(table.substring("lineitem-".length()));
    } else {
      throw new IllegalArgumentException("unknown table " + table);
    }
    if (!work.equals("decompress") && !work.equals("copy")) {
      throw new IllegalArgumentException("unknown work " + work + "; expected decompress or copy");
    }
    chunks = chunks(file, columns);
    expectedBytes = 0;
    for (Chunk chunk : chunks) {
      expectedBytes += chunk.uncompressed();
    }
    pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, FloorThread::new);
    long expected = expectedBytes;
    if (work.equals("copy")) {
      expected = 0;
      decompressed = new ArrayList<>();
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        CompressionCodecFactory codecs =
            PageCodecs.forReader(new Configuration(), new ByteArrayPool());
        for (Chunk chunk : chunks) {
          List<byte[]> pages = new ArrayList<>();
          decompress(channel, chunk, codecs, null, pages);
          decompressed.add(pages);
          for (byte[] page : pages) {
            expected += page.length;
          }
        }
      }
    }
    long produced = scan();
    if (produced != expected) {
      throw new IllegalStateException(
          work
              + " of "
              + file
              + " produced "
              + produced
              + " bytes, expected "
              + expected
              + (work.equals("copy") ? " decompressed" : " uncompressed, as its footer says"));
    }
  }

  /** The selected columns' chunks of every row group, in file order. */
  private static List<Chunk> chunks(Path file, List<String> columns) throws IOException {
    Set<String> selected = new HashSet<>(columns);
    List<Chunk> out = new ArrayList<>();
    Configuration conf = new Configuration();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData column : block.getColumns()) {
          if (selected.contains(column.getPath().toDotString())) {
            out.add(
                new Chunk(
                    column.getStartingPos(),
                    Math.toIntExact(column.getTotalSize()),
                    column.getCodec(),
                    column.getTotalUncompressedSize()));
          }
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(file + ": none of the columns " + columns);
    }
    return out;
  }

  /**
   * Decompresses (or copies) every page of every chunk with the trial's threads.
   *
   * @return {@code decompress}: the uncompressed bytes of the chunks (pages and their headers);
   *     {@code copy}: the bytes copied
   */
  @Benchmark
  public long scan() throws IOException {
    AtomicInteger next = new AtomicInteger();
    if (pool == null) {
      return work(next);
    }
    List<Future<Long>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(pool.submit(() -> work(next)));
    }
    long total = 0;
    for (Future<Long> future : futures) {
      try {
        total += future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while the floor's threads ran");
      } catch (ExecutionException e) {
        throw new IOException("a floor thread failed: " + e.getCause(), e.getCause());
      }
    }
    return total;
  }

  /** One thread's share: the chunks it takes from {@code next}. */
  private long work(AtomicInteger next) throws IOException {
    long result = 0;
    long touched = 0;
    if (work.equals("copy")) {
      byte[] target = new byte[1 << 20];
      for (int c; (c = next.getAndIncrement()) < chunks.size(); ) {
        for (byte[] page : decompressed.get(c)) {
          if (target.length < page.length) {
            target = new byte[page.length];
          }
          System.arraycopy(page, 0, target, 0, page.length);
          result += page.length;
          touched += page.length > 0 ? target[page.length >>> 1] : 0;
        }
      }
      sink = touched;
      return result;
    }
    ByteArrayPool buffers = new ByteArrayPool();
    CompressionCodecFactory codecs = PageCodecs.forReader(new Configuration(), buffers);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      for (int c; (c = next.getAndIncrement()) < chunks.size(); ) {
        result += decompress(channel, chunks.get(c), codecs, buffers, null);
      }
    } finally {
      codecs.release();
    }
    return result;
  }

  /**
   * Reads one chunk and decompresses each of its pages; a page's array goes back to {@code buffers}
   * (when given), its decompressed bytes are kept in {@code keep} (when given).
   *
   * @return the chunk's uncompressed bytes: each page's header and uncompressed size, the sum the
   *     footer keeps
   */
  private long decompress(
      FileChannel channel,
      Chunk chunk,
      CompressionCodecFactory codecs,
      ByteArrayPool buffers,
      List<byte[]> keep)
      throws IOException {
    byte[] bytes = new byte[chunk.length()];
    ByteBuffer target = ByteBuffer.wrap(bytes);
    for (long at = chunk.start(); target.hasRemaining(); ) {
      int n = channel.read(target, at);
      if (n < 0) {
        throw new IOException("column chunk at " + chunk.start() + " passes the end of the file");
      }
      at += n;
    }
    CompressionCodecFactory.BytesInputDecompressor decompressor =
        codecs.getDecompressor(chunk.codec());
    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
    long produced = 0;
    long touched = 0;
    while (in.available() > 0) {
      int headerStart = bytes.length - in.available();
      PageHeader header = Util.readPageHeader(in);
      int offset = bytes.length - in.available();
      int compressed = header.getCompressed_page_size();
      int uncompressed = header.getUncompressed_page_size();
      if (in.skip(compressed) != compressed) {
        throw new IOException("a page of the chunk at " + chunk.start() + " is cut short");
      }
      int levels = 0;
      boolean isCompressed = chunk.codec() != CompressionCodecName.UNCOMPRESSED;
      if (header.getType() == PageType.DATA_PAGE_V2) {
        DataPageHeaderV2 v2 = header.getData_page_header_v2();
        levels = v2.getRepetition_levels_byte_length() + v2.getDefinition_levels_byte_length();
        isCompressed &= !v2.isSetIs_compressed() || v2.isIs_compressed();
      }
      produced += offset - headerStart + uncompressed;
      if (!isCompressed) {
        touched += bytes[offset];
        continue;
      }
      BytesInput out =
          decompressor.decompress(
              BytesInput.from(bytes, offset + levels, compressed - levels), uncompressed - levels);
      ByteBuffer data = out.toByteBuffer();
      int length = data.remaining();
      if (length > 0) {
        touched += data.get(data.position() + (length >>> 1));
      }
      if (keep != null) {
        byte[] copy = new byte[length];
        data.duplicate().get(copy);
        keep.add(copy);
      }
      if (buffers != null && data.hasArray()) {
        buffers.give(data.array());
      }
    }
    sink = touched;
    return produced;
  }

  /** The floor's threads: daemons, named. */
  private static final class FloorThread extends Thread {
    FloorThread(Runnable task) {
      super(task, "decompression-floor");
      setDaemon(true);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (pool != null) {
      pool.shutdownNow();
    }
    decompressed = null;
  }
}
