package dev.prefetch.cli;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cli.inspect.RowPrinter;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * Prints the rows of files (head, cat): as an aligned text table, or with --json one object per row
 * in the README's JSON row encoding. --columns, --rows, --filter and --row-groups select as for
 * scan.
 */
abstract class RowsCommand extends FileCommand {

  /** Rows to print per file, or -1 for all. */
  abstract long limit();

  /** Whether the read may prefetch (not for a few rows). */
  abstract boolean prefetch();

  @Override
  public Integer call() {
    setUp();
    List<DataFiles.Checked> checked = checkFiles();
    PrintWriter out = out();
    for (DataFiles.Checked file : checked) {
      if (checked.size() > 1 && !args.json) {
        out.println((file == checked.get(0) ? "" : "\n") + "==> " + file.name() + " <==");
      }
      InspectSupport.inspect(
          file,
          () -> {
            print(file, out);
            return null;
          });
    }
    return 0;
  }

  private void print(DataFiles.Checked file, PrintWriter out) throws IOException {
    long limit = limit();
    ReadOptions.Builder options = args.readOptions(prefetch()).toBuilder();
    Object filter = filterFor(file);
    if (filter != null) {
      options.filter(filter);
    }
    if (limit >= 0 && args.rows == null && filter == null && args.rowGroups == null) {
      options.rowRanges(List.of(new RowRange(0, limit))); // read no more than is printed
    }
    try (BatchReader reader = Readers.open(DataFile.of(file.path()), options.build(), context)) {
      RowPrinter printer = new RowPrinter(out, reader.schema(), args.json);
      long printed = 0;
      for (RecordBatch batch; (limit < 0 || printed < limit) && (batch = reader.next()) != null; ) {
        int n = limit < 0 ? batch.rowCount() : (int) Math.min(batch.rowCount(), limit - printed);
        printer.print(batch, 0, n);
        printed += n;
        batch.release();
      }
      printer.finish();
    }
  }
}
