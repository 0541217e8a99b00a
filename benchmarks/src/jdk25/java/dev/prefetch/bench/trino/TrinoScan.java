package dev.prefetch.bench.trino;

import dev.prefetch.testkit.scan.ValueSums;
import dev.prefetch.testkit.baseline.ValueSink;
import java.io.IOException;

/** One Trino reader of one file: its timed scan and its checked, ordered read. */
public interface TrinoScan {

  /** Every selected value, the file's splits read by {@code splits}' threads, into sums. */
  ValueSums sums(TrinoSplits splits) throws IOException;

  /**
   * Every selected value, the splits read in file order on this thread, fed to {@code sink} one by
   * one in the checksum's canonical form.
   *
   * @return the rows read
   */
  long feed(ValueSink sink) throws IOException;
}
