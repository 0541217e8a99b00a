package dev.prefetch.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prefetch.cli.inspect.OrcInspector;
import dev.prefetch.cli.inspect.ParquetInspector;
import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine.Command;

/** {@code count}: rows of each file, from its metadata only. */
@Command(
    name = "count",
    mixinStandardHelpOptions = true,
    description =
        "Rows of each file from its footer or tail only; no data is read. With "
            + "--row-groups, the rows of those row groups (Parquet) or stripes (ORC).")
final class CountCommand extends FileCommand {

  @Override
  public Integer call() {
    PrintWriter out = out();
    long[] total = {0};
    InspectSupport.eachFile(
        this,
        "count",
        file ->
            file.format().equals("parquet")
                ? ParquetInspector.rows(file.path(), conf, args.rowGroups)
                : OrcInspector.rows(file.path(), conf, args.rowGroups),
        (file, rows) -> {
          total[0] += rows;
          if (args.json) {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            node.put("file", file.name());
            node.put("format", file.format());
            node.put("rows", rows);
            InspectSupport.print(out, node, true);
          } else {
            out.printf(Locale.ROOT, "%,15d  %s%n", rows, file.name());
          }
        });
    if (!args.json && files.size() > 1) {
      out.printf(Locale.ROOT, "%,15d  total%n", total[0]);
    }
    out.flush();
    return 0;
  }
}
