package dev.prefetch.cache;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Which version of which file cached bytes belong to: its URI with its length, its modification
 * time and, where the filesystem offers one, its version tag, so that a file rewritten in place
 * never meets stale metadata.
 *
 * <p>The version is the store's ETag ({@link EtagSource}: S3A, ABFS, GCS report one per object
 * version). Where there is none (the local filesystem, HDFS), a rewrite is told apart only by a new
 * length or modification time: a file rewritten with the same length within the filesystem's
 * timestamp resolution (a second on some stores, a millisecond locally) between two opens keeps its
 * identity. A format that takes the identity from a status before its metadata read must check it
 * against a status after the read (ORC's tail does): otherwise a rewrite between the two pairs the
 * new metadata with the old identity. With an ETag the store refuses reads of another version where
 * it enforces change detection (S3A's default).
 *
 * @param uri the file's fully qualified URI
 * @param length its length in bytes
 * @param modificationTime its modification time in milliseconds, as the filesystem reports it
 * @param version the store's version tag (ETag), or null when it reports none
 */
public record FileIdentity(URI uri, long length, long modificationTime, String version) {

  public FileIdentity {
    Objects.requireNonNull(uri, "uri is null");
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
  }

  /** An identity without a version tag. */
  public FileIdentity(URI uri, long length, long modificationTime) {
    this(uri, length, modificationTime, null);
  }

  /**
   * The identity of a file from its status, or null when the filesystem reports neither a
   * modification time nor a version (then the file cannot be told apart from a rewrite and must
   * bypass caches).
   */
  public static FileIdentity of(FileStatus status) {
    if (status == null || !status.isFile()) {
      return null;
    }
    String version = status instanceof EtagSource tagged ? emptyToNull(tagged.getEtag()) : null;
    if (status.getModificationTime() <= 0 && version == null) {
      return null;
    }
    return new FileIdentity(
        status.getPath().toUri(), status.getLen(), status.getModificationTime(), version);
  }

  private static String emptyToNull(String tag) {
    return tag == null || tag.isEmpty() ? null : tag;
  }

  /**
   * Reads the status of {@code path} and returns its identity, or null as {@link #of(FileStatus)}.
   */
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
