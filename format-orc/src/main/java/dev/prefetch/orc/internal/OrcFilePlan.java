package dev.prefetch.orc.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.orc.internal.metadata.CountingFileSystem;
import dev.prefetch.orc.internal.metadata.FileTail;
import dev.prefetch.orc.internal.plan.RangePlanner;
import dev.prefetch.orc.internal.plan.StrideLocator;
import dev.prefetch.orc.internal.reader.ReadSettings;
import dev.prefetch.orc.internal.stripe.RowGroupFilter;
import dev.prefetch.orc.internal.stripe.StripeReads;
import dev.prefetch.spi.CountingInputStream;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import java.util.TimeZone;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;

/**
 * The plan of one ORC file's read: the projection, the predicate, the ranges, how values decode,
 * and the stripes' reads that every {@link OrcRangeReader} it opens shares ({@link StripeReads}).
 * Immutable after construction but for those shared reads, which are thread-safe.
 */
public final class OrcFilePlan implements FilePlan {

  /**
   * What the read path needs of the file beyond its tail's messages, taken from orc-core's reader
   * while planning.
   *
   * @param compression the file's compression
   * @param blockSize its compression block size
   * @param version the file's format version
   * @param writerVersion the writer's version (what its statistics hold)
   * @param writerUsedProlepticGregorian whether its dates and timestamps are proleptic
   * @param convertToProlepticGregorian whether the read keeps them proleptic ({@code
   *     orc.proleptic.gregorian})
   * @param bloomFilters whether its bloom filters can be trusted
   * @param conf the read's configuration
   */
  record FileFacts(
      CompressionKind compression,
      int blockSize,
      OrcFile.Version version,
      OrcFile.WriterVersion writerVersion,
      boolean writerUsedProlepticGregorian,
      boolean convertToProlepticGregorian,
      boolean bloomFilters,
      Configuration conf) {}

  private final DataFile file;
  private final FileSystem fs;
  private final Projection projection;
  private final SearchArgument sarg;
  private final long[] stripeFirstRows;
  private final List<ReadRange> ranges;

  /** The locator of each range, at its index. */
  private final List<StrideLocator> locators;

  private final int batchSize;

  /** orc.read.enable-prefetch-read-size-threshold, when the read sets it. */
  private final OptionalLong prefetchThresholdBytes;

  private final ScanCounters counters;
  private final long rowIndexStride;
  private final FileFacts facts;

  /** The stripes' reads, shared by the plan's range readers. */
  private final StripeReads stripeReads;

  /** How the read decodes values. */
  private final ReadSettings readSettings;

  /** Whether each output column comes as dictionary vectors where its stripe allows. */
  private final boolean[] dictionaryVectors;

  /** Whether the read filters rows with its predicate (orc-core's row filter options). */
  private final boolean rowFilter;

  OrcFilePlan(
      DataFile file,
      FileSystem fs,
      FileTail tail,
      Projection projection,
      SearchArgument sarg,
      List<StripeInformation> stripes,
      RangePlanner.Planned planned,
      ReadOptions options,
      OrcOptions orcOptions,
      ScanCounters counters,
      FileFacts facts) {
    this.file = file;
    this.fs = fs;
    this.projection = projection;
    this.sarg = sarg;
    this.stripeFirstRows = new long[stripes.size()];
    long row = 0;
    for (int i = 0; i < stripes.size(); i++) {
      stripeFirstRows[i] = row;
      row += stripes.get(i).getNumberOfRows();
    }
    this.ranges = planned.ranges();
    this.locators = planned.locators();
    this.batchSize = options.batchSize();
    this.prefetchThresholdBytes = orcOptions.prefetchThresholdBytes();
    this.counters = counters;
    this.rowIndexStride = tail.proto().getFooter().getRowIndexStride();
    this.facts = facts;
    this.readSettings =
        new ReadSettings(
            facts.version() == OrcFile.Version.UNSTABLE_PRE_2_0,
            facts.writerUsedProlepticGregorian() && !facts.convertToProlepticGregorian(),
            TimeZone.getDefault(),
            options.maxBufferedBytes());
    this.dictionaryVectors = new boolean[projection.columnCount()];
    for (int c = 0; c < dictionaryVectors.length; c++) {
      Field field = projection.schema().field(c);
      dictionaryVectors[c] =
          field.type().kind() == DataType.Kind.STRING
              && orcOptions.dictionaryVectors().includes(field.name());
    }
    this.rowFilter =
        RowFilter.of(sarg, projection.fileSchema(), facts.version(), facts.conf(), 1) != null;
    RowGroupFilter filter =
        sarg == null || rowIndexStride <= 0
            ? null
            : new RowGroupFilter(
                sarg,
                rowIndexStride,
                projection.fileSchema(),
                facts.writerVersion(),
                facts.writerUsedProlepticGregorian(),
                facts.convertToProlepticGregorian(),
                facts.bloomFilters(),
                facts.conf());
    this.stripeReads =
        new StripeReads(
            new StripeReads.Settings(
                file,
                stripes,
                projection.fileSchema(),
                // the row filter decodes the predicate's columns too
                rowFilter ? projection.include() : projection.outputInclude(),
                facts.compression(),
                facts.blockSize(),
                rowIndexStride,
                readSettings.decimal64(),
                !CountingInputStream.isLocal(fs),
                filter,
                rangesPerStripe(stripes.size(), locators),
                neededStrides(stripes, ranges, locators, sarg, rowIndexStride)));
  }

  /** The plan's ranges of each stripe. */
  private static int[] rangesPerStripe(int stripes, List<StrideLocator> locators) {
    int[] count = new int[stripes];
    for (StrideLocator locator : locators) {
      count[locator.stripe()]++;
    }
    return count;
  }

  /**
   * Per stripe, the row groups the plan's ranges of it cover; null for a stripe read whole (every
   * row, no predicate, or no row index) or without ranges.
   */
  private static boolean[][] neededStrides(
      List<StripeInformation> stripes,
      List<ReadRange> ranges,
      List<StrideLocator> locators,
      SearchArgument sarg,
      long rowIndexStride) {
    boolean[][] needed = new boolean[stripes.size()][];
    if (rowIndexStride <= 0) {
      return needed;
    }
    long[] rows = new long[stripes.size()];
    for (int i = 0; i < ranges.size(); i++) {
      StrideLocator locator = locators.get(i);
      int stripe = locator.stripe();
      rows[stripe] += ranges.get(i).rowCount();
      if (needed[stripe] == null) {
        long stripeRows = stripes.get(stripe).getNumberOfRows();
        needed[stripe] =
            new boolean[Math.toIntExact((stripeRows + rowIndexStride - 1) / rowIndexStride)];
      }
      for (int s = Math.max(0, locator.firstStride()); s <= locator.lastStride(); s++) {
        needed[stripe][s] = true;
      }
    }
    for (int s = 0; s < needed.length; s++) {
      if (needed[s] != null && sarg == null && rows[s] == stripes.get(s).getNumberOfRows()) {
        needed[s] = null; // every row of the stripe, no predicate: read whole
      }
    }
    return needed;
  }

  @Override
  public DataFile file() {
    return file;
  }

  @Override
  public String formatName() {
    return "orc";
  }

  @Override
  public Schema schema() {
    return projection.schema();
  }

  @Override
  public List<ReadRange> ranges() {
    return ranges;
  }

  @Override
  public long minReadBytes(ReadOptions options) {
    return prefetchThresholdBytes.orElse(options.minReadBytes());
  }

  /**
   * Off the local filesystem: a range reader then issues the next range's stripe reads while it
   * decodes the current one ({@link OrcRangeReader#prefetch}).
   */
  @Override
  public boolean readsAhead() {
    return stripeReads.settings().together();
  }

  @Override
  public RangeReader openReader(ReaderContext context) throws IOException {
    return new OrcRangeReader(this, context);
  }

  /** Where range {@code index} lies. */
  StrideLocator locator(int index) {
    return locators.get(index);
  }

  /** A row filter for one range reader, when the read asks for one; else null. */
  RowFilter newRowFilter() {
    return rowFilter
        ? RowFilter.of(sarg, projection.fileSchema(), facts.version(), facts.conf(), batchSize)
        : null;
  }

  /** The stripes' shared reads. */
  StripeReads stripeReads() {
    return stripeReads;
  }

  /** How the read decodes values. */
  ReadSettings readSettings() {
    return readSettings;
  }

  /** Whether output column {@code column} comes as dictionary vectors where it can. */
  boolean dictionaryVectors(int column) {
    return dictionaryVectors[column];
  }

  /** Rows per row group; 0 without a row index. */
  long rowIndexStride() {
    return rowIndexStride;
  }

  /** A counting view of the file's filesystem, for one range reader's stream. */
  CountingFileSystem newCountingFileSystem() {
    return new CountingFileSystem(fs, counters, null);
  }

  /**
   * Opens an orc-core reader over {@code tail} (no second tail read), reading through a counting
   * view of {@code fs}: the planner reads the schema, stripes and statistics through it.
   */
  static Reader openOrcReader(
      DataFile file, FileSystem fs, Configuration conf, FileTail tail, ScanCounters counters)
      throws IOException {
    OrcFile.ReaderOptions options =
        OrcFile.readerOptions(conf)
            .filesystem(new CountingFileSystem(fs, counters, null))
            .orcTail(tail.newOrcTail())
            .maxLength(tail.proto().getFileLength())
            .useUTCTimestamp(true);
    return OrcFile.createReader(file.path(), options);
  }

  Projection projection() {
    return projection;
  }

  int batchSize() {
    return batchSize;
  }

  /** The file row of stripe {@code stripe}'s first row. */
  long stripeFirstRow(int stripe) {
    return stripeFirstRows[stripe];
  }

  @Override
  public void close() {
    stripeReads.clear();
  }

  @Override
  public String toString() {
    return "OrcFilePlan[" + file + ", " + ranges.size() + " ranges]";
  }
}
