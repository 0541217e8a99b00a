package dev.prefetch.parquet.internal.footer;

import dev.prefetch.DataFile;
import java.io.IOException;

/**
 * The file's identity changed between the status its footer read started from and the status after
 * it: the bytes read may belong to either version, so they are neither cached nor used, and the
 * planner reads the file again from its new status.
 */
public final class FileChangedWhileReading extends IOException {

  private static final long serialVersionUID = 1L;

  FileChangedWhileReading(DataFile file, Throwable cause) {
    super(file + " changed while its footer was read", cause);
  }
}
