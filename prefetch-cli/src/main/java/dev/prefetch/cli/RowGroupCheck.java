package dev.prefetch.cli;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * Checks a {@code --row-groups} read against the file's footer: every asked row group exists, and
 * the reader returned exactly their rows (a reader that ignored the selection would not).
 */
final class RowGroupCheck {

  private RowGroupCheck() {}

  /**
   * The rows of the selected row groups (each counted once); a group the file lacks is a usage
   * error. Parses the whole footer: call once per file, before timing.
   */
  static long rowsOf(DataFiles.Checked file, Configuration conf, List<Integer> groups) {
    groups = new java.util.ArrayList<>(new java.util.TreeSet<>(groups));
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(file.path(), conf))) {
      List<BlockMetaData> blocks = reader.getFooter().getBlocks();
      long rows = 0;
      for (int g : groups) {
        if (g >= blocks.size()) {
          throw new CliException(
              CliException.USAGE,
              file.name()
                  + ": --row-groups "
                  + g
                  + " does not exist; the file has "
                  + blocks.size()
                  + " row groups (0.."
                  + (blocks.size() - 1)
                  + ")");
        }
        rows += blocks.get(g).getRowCount();
      }
      return rows;
    } catch (IOException e) {
      throw FileCommand.readError(file.name(), e);
    }
  }

  /**
   * Fails when {@code rowsRead} is not {@code expected}, the rows of the selected row groups from
   * {@link #rowsOf} (no footer is parsed here).
   */
  static void check(
      DataFiles.Checked file,
      List<Integer> groups,
      long expected,
      long rowsRead,
      boolean narrowed) {
    if (narrowed ? rowsRead > expected : rowsRead != expected) {
      throw new CliException(
          CliException.READ_ERROR,
          file.name()
              + ": the reader returned "
              + rowsRead
              + " rows, but row groups "
              + groups
              + " hold "
              + expected
              + " (was "
              + ReadArgs.ROW_GROUPS_PROPERTY
              + " ignored?)");
    }
  }
}
