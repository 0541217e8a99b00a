package dev.prefetch.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileIdentityTest {

  @TempDir java.nio.file.Path dir;

  private final FileSystem fs = localFileSystem();

  private static FileSystem localFileSystem() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private Path write(String name, int length) throws IOException {
    java.nio.file.Path file = dir.resolve(name);
    Files.write(file, new byte[length]);
    return new Path(file.toUri());
  }

  @Test
  void unchangedFileKeepsItsIdentity() throws IOException {
    Path path = write("a.bin", 100);

    FileIdentity first = FileIdentity.of(fs, path);
    FileIdentity second = FileIdentity.of(fs, path);

    assertThat(first).isNotNull().isEqualTo(second);
    assertThat(first.length()).isEqualTo(100);
    assertThat(first.uri().getPath()).endsWith("/a.bin");
    assertThat(CacheKey.footer(first)).isEqualTo(CacheKey.footer(second));
  }

  @Test
  void fileRewrittenWithAnotherLengthGetsANewIdentity() throws IOException {
    Path path = write("a.bin", 100);
    FileIdentity before = FileIdentity.of(fs, path);
    java.nio.file.Path local = java.nio.file.Path.of(path.toUri());
    FileTime mtime = Files.getLastModifiedTime(local);

    Files.write(local, new byte[101]);
    Files.setLastModifiedTime(local, mtime); // only the length tells the versions apart
    FileIdentity after = FileIdentity.of(fs, path);

    assertThat(after.modificationTime()).isEqualTo(before.modificationTime());
    assertThat(after.length()).isEqualTo(101);
    assertThat(after).isNotEqualTo(before);
    assertThat(CacheKey.footer(after)).isNotEqualTo(CacheKey.footer(before));
  }

  @Test
  void fileRewrittenWithTheSameLengthButAnotherMtimeGetsANewIdentity() throws IOException {
    Path path = write("a.bin", 100);
    FileIdentity before = FileIdentity.of(fs, path);
    java.nio.file.Path local = java.nio.file.Path.of(path.toUri());

    Files.write(local, new byte[100]);
    Files.setLastModifiedTime(local, FileTime.fromMillis(before.modificationTime() + 5_000));
    FileIdentity after = FileIdentity.of(fs, path);

    assertThat(after.length()).isEqualTo(before.length());
    assertThat(after.modificationTime()).isEqualTo(before.modificationTime() + 5_000);
    assertThat(after).isNotEqualTo(before);
  }

  @Test
  void aRewrittenFileMissesTheCachedFooterOfItsOldVersion() throws IOException {
    Path path = write("a.bin", 100);
    MemoryCache cache = MemoryCache.builder().maximumBytes(1 << 20).build();
    CacheValue oldFooter = CacheValue.copyOf(new byte[] {1, 2, 3});
    cache.put(CacheKey.footer(FileIdentity.of(fs, path)), oldFooter);

    java.nio.file.Path local = java.nio.file.Path.of(path.toUri());
    Files.write(local, new byte[200]);
    CacheValue seen = cache.getIfPresent(CacheKey.footer(FileIdentity.of(fs, path)));

    assertThat(seen).isNull();
  }

  /** A status as an object store returns it: with the version's ETag (S3A, ABFS). */
  private static final class StoreStatus extends org.apache.hadoop.fs.FileStatus
      implements org.apache.hadoop.fs.EtagSource {
    private final String etag;

    StoreStatus(long length, long modificationTime, String etag) {
      super(
          length,
          false,
          1,
          1 << 20,
          modificationTime,
          new Path("s3a://bucket/table/part-0.parquet"));
      this.etag = etag;
    }

    @Override
    public String getEtag() {
      return etag;
    }
  }

  @Test
  void twoVersionsOfTheSameLengthAndSecondDifferByTheirStoresEtag() {
    FileIdentity first = FileIdentity.of(new StoreStatus(4096, 1_700_000_000_000L, "\"a1\""));
    FileIdentity rewritten = FileIdentity.of(new StoreStatus(4096, 1_700_000_000_000L, "\"b2\""));
    FileIdentity again = FileIdentity.of(new StoreStatus(4096, 1_700_000_000_000L, "\"a1\""));

    assertThat(first.version()).isEqualTo("\"a1\"");
    assertThat(first).isNotEqualTo(rewritten).isEqualTo(again);
    assertThat(CacheKey.footer(first)).isNotEqualTo(CacheKey.footer(rewritten));
  }

  @Test
  void aLocalFileHasNoVersionAndIsKnownByLengthAndModificationTime() throws IOException {
    FileIdentity identity = FileIdentity.of(fs, write("local.bin", 10));
    assertThat(identity.version()).isNull();
  }

  @Test
  void missingFileIsAnErrorNotANullIdentity() {
    Path missing = new Path(dir.resolve("missing.bin").toUri());

    assertThatThrownBy(() -> FileIdentity.of(fs, missing))
        .isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void directoryHasNoIdentity() throws IOException {
    assertThat(FileIdentity.of(fs, new Path(dir.toUri()))).isNull();
  }
}
