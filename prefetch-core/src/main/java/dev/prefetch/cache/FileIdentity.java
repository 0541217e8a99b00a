package dev.prefetch.cache;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Which version of which file cached bytes belong to: its URI with its length and modification
 * time, so that a file rewritten in place (new length or new mtime) never meets stale metadata.
 *
 * @param uri the file's fully qualified URI
 * @param length its length in bytes
 * @param modificationTime its modification time in milliseconds, as the filesystem reports it
 */
public record FileIdentity(URI uri, long length, long modificationTime) {

  public FileIdentity {
    Objects.requireNonNull(uri, "uri is null");
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
  }

  /**
   * The identity of a file from its status, or null when the filesystem does not report a
   * modification time (then the file cannot be told apart from a rewrite and must bypass caches).
   */
  public static FileIdentity of(FileStatus status) {
    if (status == null || !status.isFile() || status.getModificationTime() <= 0) {
      return null;
    }
    return new FileIdentity(status.getPath().toUri(), status.getLen(),
        status.getModificationTime());
  }

  /** Reads the status of {@code path} and returns its identity, or null as {@link #of(FileStatus)}. */
  public static FileIdentity of(FileSystem fs, Path path) throws IOException {
    try {
      return of(fs.getFileStatus(path));
    } catch (FileNotFoundException e) {
      throw e;
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }
}
