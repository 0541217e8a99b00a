package dev.prefetch.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.Readers;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import dev.prefetch.cli.inspect.OrcInspector;
import dev.prefetch.cli.inspect.ParquetInspector;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code schema}: our schema of each file beside the file's own types. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description =
        "Each column's type in our type system (the README's type mapping) beside "
            + "its type in the file (Parquet physical and logical types, ORC types).")
final class SchemaCommand extends FileCommand {

  @Override
  public Integer call() {
    InspectSupport.eachFile(
        this,
        "schema",
        file -> {
          Schema ours;
          // Opening plans the file on this thread; with prefetch off no producer starts.
          try (BatchReader reader =
              Readers.open(DataFile.of(file.path()), args.readOptions(false), context)) {
            ours = reader.schema();
          }
          Map<String, String> fileTypes =
              file.format().equals("parquet")
                  ? ParquetInspector.fileTypes(file.path(), conf)
                  : OrcInspector.fileTypes(file.path(), conf);
          ObjectNode root = JsonNodeFactory.instance.objectNode();
          root.put("file", file.name());
          root.put("format", file.format());
          ArrayNode columns = root.putArray("columns");
          for (Field field : ours.fields()) {
            ObjectNode column = columns.addObject();
            column.put("column", field.name());
            column.put("type", field.type().toString());
            column.put("nullable", field.nullable());
            column.put("fileType", fileTypes.get(field.name()));
          }
          return root;
        },
        (file, node) -> InspectSupport.print(out(), node, args.json));
    return 0;
  }
}
