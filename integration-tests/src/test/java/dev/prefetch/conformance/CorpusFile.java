package dev.prefetch.conformance;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One file of the conformance corpus and what is known about its references.
 *
 * @param name a short name saying what the file holds
 * @param path where it was written
 * @param format "parquet" or "orc"
 * @param writer who wrote it (parquet-java, DuckDB, orc-core)
 * @param arrowUnreadable why Arrow C++ cannot read the file, or null when it can
 * @param arrowDiffers per column, why Arrow C++'s values differ from the documented mapping (which
 *     reader is right and why); the parity test checks that they do differ
 * @param expected per column, hand-written values in the canonical form (per row, the items of
 *     {@link Canonical}), checked where a reference cannot read or differs
 * @param sameValuesAs the name of a corpus file that holds the same values and that Arrow C++
 *     reads, for a file it cannot read (another codec of the same rows), or null
 */
public record CorpusFile(
    String name,
    Path path,
    String format,
    String writer,
    String arrowUnreadable,
    Map<String, String> arrowDiffers,
    Map<String, List<List<Object>>> expected,
    String sameValuesAs) {

  public CorpusFile {
    arrowDiffers = Map.copyOf(arrowDiffers);
    expected = Map.copyOf(expected);
  }

  @Override
  public String toString() {
    return name;
  }
}
