package dev.prefetch.orc.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.orc.internal.metadata.FileTail;
import dev.prefetch.orc.internal.metadata.OrcChecks;
import dev.prefetch.orc.internal.plan.RangePlanner;
import dev.prefetch.orc.internal.plan.SargPruner;
import dev.prefetch.orc.internal.stripe.RowGroupFilter;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.impl.ReaderImpl;

/**
 * Plans the read of one ORC file: reads (or takes from the cache) its tail once, resolves the
 * projection and the predicate, prunes stripes and cuts the rest into ranges.
 *
 * <p>Size estimate of the selected columns, per stripe: the stripe's data length (from the tail's
 * stripe information, no stripe footer read) times the share of the selected columns in the
 * stripe's raw data size, which orc-core derives from that stripe's column statistics (also in the
 * tail: value counts times type widths, string and binary lengths). Raw size is not compressed
 * size, but compression ratios of the columns of one file are alike enough for sizing reads.
 * Without usable statistics the share falls back to 1 (the whole stripe).
 */
public final class OrcPlanner {

  private OrcPlanner() {}

  /**
   * Plans {@code file} over its loaded {@code tail} ({@link OrcFormat#plan} loads it and reports
   * what fails here as a corrupt file).
   *
   * <p>orc-core's reader, opened over the tail, gives the schema, the stripes and the file's facts,
   * none of which it decompresses anything for; the stripe statistics come from the tail itself
   * ({@link FileTail#stripeStatistics}), decompressed with the reader's own codec, since the
   * engine's orc-core may not load every codec the reader reads (see {@code OrcProtos}).
   */
  static OrcFilePlan plan(
      DataFile file,
      ReadOptions options,
      OrcOptions orcOptions,
      RangeBudget budget,
      FileSystem fs,
      Configuration conf,
      FileTail tail,
      SearchArgument sarg,
      ScanCounters counters)
      throws IOException {
    try (Reader reader = OrcFilePlan.openOrcReader(file, fs, conf, tail, counters)) {
      TypeDescription schema = reader.getSchema();
      List<String> predicateColumns = new ArrayList<>();
      if (sarg != null) {
        for (PredicateLeaf leaf : sarg.getLeaves()) {
          predicateColumns.add(leaf.getColumnName());
        }
      }
      Projection projection = Projection.resolve(file, schema, options.columns(), predicateColumns);
      List<StripeInformation> stripes = reader.getStripes();
      OrcProto.Footer footer = tail.proto().getFooter();
      long fileLength = tail.proto().getFileLength();
      OrcChecks.checkStripes(
          file,
          stripes,
          footer.getNumberOfRows(),
          footer.getRowIndexStride(),
          fileLength - tail.length(),
          reader.getCompressionKind());
      int count = stripes.size();
      long[] rows = new long[count];
      long[] bytes = new long[count];
      boolean[] keep = new boolean[count];
      List<OrcProto.StripeStatistics> stripeStats = tail.stripeStatistics(file);
      for (int s = 0; s < count; s++) {
        StripeInformation stripe = stripes.get(s);
        rows[s] = stripe.getNumberOfRows();
        double share =
            projection.readsEverything() ? 1.0 : share(projection, schema, reader, stripeStats, s);
        bytes[s] = Math.round(stripe.getDataLength() * share);
        keep[s] = file.containsOffset(stripe.getOffset());
      }
      if (sarg != null && footer.getEncryption().getVariantsCount() == 0) {
        // A file with encrypted columns is not pruned: their statistics here are of masked values.
        SargPruner.prune(
            sarg,
            schema,
            SargPruner.statistics(
                schema,
                stripeStats,
                reader.writerUsedProlepticGregorian(),
                reader.getConvertToProlepticGregorian()),
            keep);
      }
      RangePlanner.Planned ranges =
          RangePlanner.plan(
              rows,
              bytes,
              keep,
              reader.getRowIndexStride(),
              orcOptions.naturalReadSizeBytes(),
              budget.lookAheadRows(),
              options.rowRanges());
      return new OrcFilePlan(
          file,
          fs,
          tail,
          projection,
          sarg,
          stripes,
          ranges,
          options,
          orcOptions,
          counters,
          new OrcFilePlan.FileFacts(
              reader.getCompressionKind(),
              reader.getCompressionSize(),
              reader.getFileVersion(),
              reader.getWriterVersion(),
              reader.writerUsedProlepticGregorian(),
              reader.getConvertToProlepticGregorian(),
              RowGroupFilter.trustsBloomFilters(footer),
              conf));
    }
  }

  /** The selected columns' share of stripe {@code s}'s raw data size, in [0, 1]. */
  private static double share(
      Projection projection,
      TypeDescription schema,
      Reader reader,
      List<OrcProto.StripeStatistics> stripeStats,
      int s) {
    List<OrcProto.ColumnStatistics> stats =
        s < stripeStats.size()
            ? stripeStats.get(s).getColStatsList()
            : reader.getOrcProtoFileStatistics();
    List<Integer> all = new ArrayList<>();
    for (TypeDescription child :
        schema.getChildren() == null ? List.<TypeDescription>of() : schema.getChildren()) {
      all.add(child.getId());
    }
    try {
      long total = ReaderImpl.getRawDataSizeFromColIndices(all, reader.getTypes(), stats);
      long selected =
          ReaderImpl.getRawDataSizeFromColIndices(projection.columnIds(), reader.getTypes(), stats);
      if (total <= 0) {
        return 1.0;
      }
      return Math.min(1.0, (double) selected / total);
    } catch (IOException | RuntimeException e) {
      return 1.0; // statistics orc-core cannot size: assume the whole stripe
    }
  }

  /** The context's configuration, plus the read's orc-core properties if there are any. */
  static Configuration configuration(Configuration base, Map<String, String> library) {
    if (library.isEmpty()) {
      return base;
    }
    Configuration conf = new Configuration(base);
    for (Map.Entry<String, String> entry : library.entrySet()) {
      conf.set(entry.getKey(), entry.getValue());
    }
    return conf;
  }
}
