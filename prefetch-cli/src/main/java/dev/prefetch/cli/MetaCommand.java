package dev.prefetch.cli;

import dev.prefetch.cli.inspect.OrcInspector;
import dev.prefetch.cli.inspect.ParquetInspector;
import picocli.CommandLine.Command;

/** {@code meta}: the row groups or stripes of each file, from its metadata. */
@Command(
    name = "meta",
    mixinStandardHelpOptions = true,
    description =
        "Row groups (Parquet) or stripes (ORC): rows, offsets, compressed and "
            + "uncompressed sizes, and per column its codec, encodings, statistics and whether it "
            + "has a page index, bloom filter and page CRCs. --row-groups i,j shows only those row "
            + "groups (or stripes), decoding only them from a Parquet footer.")
final class MetaCommand extends FileCommand {

  @Override
  public Integer call() {
    InspectSupport.eachFile(
        this,
        "meta",
        file ->
            file.format().equals("parquet")
                ? ParquetInspector.meta(file.name(), file.path(), conf, args.rowGroups)
                : OrcInspector.meta(file.name(), file.path(), conf, args.rowGroups),
        (file, node) -> InspectSupport.print(out(), node, args.json));
    return 0;
  }
}
