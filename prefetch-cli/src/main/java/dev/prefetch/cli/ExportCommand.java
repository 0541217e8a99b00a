package dev.prefetch.cli;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.arrow.PrefetchArrowReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code export --arrow OUT FILE}: the scan of a file (with the shared read options: columns, rows,
 * filter, threads...) as an Arrow IPC stream, through the same Arrow mapping as the library's
 * {@code PrefetchArrowReader}.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = "Write the scan of FILE as an Arrow IPC stream (any Arrow tool reads it).")
final class ExportCommand extends FileCommand {

  @Option(
      names = "--arrow",
      required = true,
      paramLabel = "OUT",
      description = "The Arrow IPC stream file to write (replaced if it exists).")
  Path arrowOut;

  /** Writes every batch of {@code reader}; a failure to write names the output file. */
  private void write(PrefetchArrowReader reader) throws IOException {
    OutputStream out;
    try {
      out = Files.newOutputStream(arrowOut);
    } catch (IOException e) {
      throw writeError(e);
    }
    try (OutputStream closing = out;
        // The reader provides the dictionaries of its dictionary-encoded fields; the stream
        // writer writes one again whenever it changed (a new row group's).
        ArrowStreamWriter writer =
            new ArrowStreamWriter(
                reader.getVectorSchemaRoot(), reader, Channels.newChannel(closing))) {
      try {
        writer.start();
      } catch (IOException e) {
        throw writeError(e);
      }
      while (reader.loadNextBatch()) {
        try {
          writer.writeBatch();
        } catch (IOException e) {
          throw writeError(e);
        }
      }
      try {
        writer.end();
      } catch (IOException e) {
        throw writeError(e);
      }
    }
  }

  /** What an export wrote. */
  private record Exported(long rows, long batches) {}

  private CliException writeError(IOException e) {
    return new CliException(
        CliException.READ_ERROR,
        arrowOut + ": cannot write the Arrow stream: " + e.getMessage(),
        e);
  }

  @Override
  public Integer call() {
    setUp();
    if (files.size() != 1) {
      throw new CliException(
          CliException.USAGE, "export reads one FILE, not " + files.size() + ": " + files);
    }
    DataFiles.Checked file = checkFiles().get(0);
    Object filter = filterFor(file);
    ReadOptions options =
        filter == null
            ? args.readOptions(true)
            : args.readOptions(true).toBuilder().filter(filter).build();
    long start = System.nanoTime();
    Exported exported =
        InspectSupport.inspect(
            file,
            () -> {
              try (BufferAllocator allocator = new RootAllocator();
                  PrefetchArrowReader reader =
                      PrefetchArrowReader.open(
                          DataFile.of(file.path()), options, context, allocator)) {
                write(reader);
                return new Exported(reader.rows(), reader.batches());
              }
            });
    double seconds = (System.nanoTime() - start) / 1e9;
    long bytes;
    try {
      bytes = Files.size(arrowOut);
    } catch (IOException e) {
      bytes = -1;
    }
    PrintWriter out = out();
    if (args.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("file", file.name());
      json.put("format", file.format());
      json.put("arrow", arrowOut.toString());
      json.put("rows", exported.rows());
      json.put("batches", exported.batches());
      json.put("bytesWritten", bytes);
      json.put("seconds", seconds);
      out.println(dev.prefetch.cli.internal.Json.write(json));
    } else {
      out.printf(
          Locale.ROOT,
          "%s: %,d rows in %d batches to %s (%,d bytes, %.3f s)%n",
          file.name(),
          exported.rows(),
          exported.batches(),
          arrowOut,
          bytes,
          seconds);
    }
    out.flush();
    return 0;
  }
}
