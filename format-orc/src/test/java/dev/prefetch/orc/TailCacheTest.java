package dev.prefetch.orc;

import dev.prefetch.testing.MetadataCacheContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The metadata-cache contract on ORC files: the file tail is what is cached. */
class TailCacheTest extends MetadataCacheContract {

  @Override
  protected Path write(Path file, int rows, int variant) throws IOException {
    Files.deleteIfExists(file);
    OrcTestFiles.Spec spec = OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, rows).stripeRows(2000);
    return OrcTestFiles.write(
        file,
        new OrcTestFiles.Spec(
            spec.schema(),
            spec.rows(),
            spec.codec(),
            spec.rowIndexStride(),
            spec.stripeRows(),
            spec.nulls(),
            variant + 1,
            spec.bloomFilterColumns()));
  }

  @Override
  protected String extension() {
    return ".orc";
  }
}
