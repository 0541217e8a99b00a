package dev.prefetch.bench.trino.orc;

import dev.prefetch.bench.trino.TrinoStorage;
import io.trino.orc.AbstractOrcDataSource;
import io.trino.orc.OrcDataSourceId;
import io.trino.orc.OrcReaderOptions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Trino's ORC data source over a local file under a storage model ({@link TrinoStorage}), shared by
 * the record readers of one thread's stripes.
 */
final class OrcFileSource extends AbstractOrcDataSource {

  private final TrinoStorage.FileReads reads;

  private OrcFileSource(Path file, TrinoStorage.FileReads reads, OrcReaderOptions options) {
    super(new OrcDataSourceId(file.toString()), reads.size(), options);
    this.reads = reads;
  }

  /** A source over {@code file} under {@code storage}, "local" or "remote". */
  static OrcFileSource open(Path file, String storage, OrcReaderOptions options)
      throws IOException {
    return new OrcFileSource(file, TrinoStorage.FileReads.open(file, storage), options);
  }

  @Override
  protected void readInternal(long position, byte[] buffer, int offset, int length)
      throws IOException {
    reads.read(position, buffer, offset, length);
  }

  /**
   * Nothing: Trino's record reader closes its data source when it ends, and one source serves the
   * record readers of every stripe a thread reads; {@link #closeFile} closes the file.
   */
  @Override
  public void close() {}

  /** Closes the file, once no record reader of it runs. */
  void closeFile() throws IOException {
    reads.close();
  }
}
