package dev.prefetch.orc.internal.metadata;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadException;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.CacheKey;
import dev.prefetch.cache.CacheValue;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.spi.ScanCounters;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.OrcTail;

/**
 * An ORC file's tail (stripe statistics, metadata, footer, postscript), read once per reader or
 * taken from the metadata cache, from which every orc-core reader of the file is opened.
 *
 * <p>The bytes kept are exactly {@code [stripeStatisticsOffset, fileLength)}: orc-core's own tail
 * buffer starts wherever its speculative read began (often before the stripe statistics, inside the
 * last stripe), and an {@link OrcTail} rebuilt from bytes assumes they start at the stripe
 * statistics. The parsed {@link OrcProto.FileTail} is an immutable message and the byte array is
 * never written, so both are shared by every reader of the file; each reader wraps the array in a
 * {@link ByteBuffer} of its own ({@link #newOrcTail()}), as orc-core moves buffer positions.
 */
public final class FileTail {

  private final OrcProto.FileTail proto;
  private final byte[] bytes;

  private FileTail(OrcProto.FileTail proto, byte[] bytes) {
    this.proto = proto;
    this.bytes = bytes;
  }

  /** Attempts at reading a tail whose file does not change while it is read. */
  public static final int MAX_ATTEMPTS = 3;

  /**
   * Loads the tail of {@code file}: from {@code cache} when it holds it, else from the file (one
   * tail read, counted as {@link ScanCounters#FOOTER_READS}), storing it in the cache.
   *
   * <p>The cache key is the identity of the very version whose tail was read: the file's status is
   * taken again after the read, and a tail is stored only when both statuses give one identity
   * (length, modification time and, where the store reports one, its version tag). A file that
   * changed during the read is read again from its new status, so a rewrite between the status and
   * the read never pairs the new tail with the old identity. What remains: a rewrite with the same
   * length within the filesystem's timestamp resolution on a store without versions.
   *
   * @param status the file's status, taken before the read
   */
  public static FileTail load(
      DataFile file,
      FileSystem fs,
      Configuration conf,
      FileStatus status,
      Cache cache,
      ScanCounters counters)
      throws IOException {
    if (cache == null) {
      return readFromFile(file, fs, conf, checkNotEmpty(file, status), counters);
    }
    FileStatus before = status;
    for (int attempt = 1; ; attempt++) {
      checkNotEmpty(file, before);
      FileIdentity identity = FileIdentity.of(before);
      if (identity == null) {
        cache.recordBypass();
        OrcLog.cacheBypassed(file);
        return readFromFile(file, fs, conf, before, counters);
      }
      FileStatus read = before;
      try {
        CacheValue value =
            cache.get(
                CacheKey.footer(identity),
                key -> {
                  FileTail tail;
                  try {
                    tail = readFromFile(file, fs, conf, read, counters);
                  } catch (IOException e) {
                    // A tail read past the end of a shorter rewrite fails: a change, not corruption
                    FileStatus after = fs.getFileStatus(file.path());
                    if (!identity.equals(FileIdentity.of(after))) {
                      throw new ChangedWhileReading(after);
                    }
                    throw e;
                  }
                  FileStatus after = fs.getFileStatus(file.path());
                  if (!identity.equals(FileIdentity.of(after))) {
                    throw new ChangedWhileReading(after); // cached for neither version
                  }
                  return CacheValue.copyOf(tail.bytes);
                });
        return parse(file, value.toByteArray(), before.getLen());
      } catch (ChangedWhileReading e) {
        if (attempt == MAX_ATTEMPTS) {
          throw new ReadException(
              file, "the file changed while its tail was read, " + attempt + " times", e);
        }
        before = e.status == null ? fs.getFileStatus(file.path()) : e.status;
      }
    }
  }

  /** The file's identity changed between the status before the tail read and the one after. */
  private static final class ChangedWhileReading extends IOException {
    private static final long serialVersionUID = 1L;

    /** The status after the read; null for a waiter of another thread's load. */
    private final transient FileStatus status;

    ChangedWhileReading(FileStatus status) {
      super("changed while its tail was read");
      this.status = status;
    }
  }

  private static FileStatus checkNotEmpty(DataFile file, FileStatus status) throws IOException {
    if (status.getLen() == 0) {
      throw new CorruptFileException("Not an ORC file: " + file + " is empty (0 bytes)");
    }
    return status;
  }

  private static FileTail readFromFile(
      DataFile file, FileSystem fs, Configuration conf, FileStatus status, ScanCounters counters)
      throws IOException {
    CountingFileSystem counting =
        new CountingFileSystem(fs, counters, ScanCounters.FOOTER_BYTES_READ);
    counters.increment(ScanCounters.FOOTER_READS);
    // The tail is read and its lengths checked here (OrcChecks) rather than by orc-core, which
    // allocates the buffer for whatever lengths the postscript states.
    try (FSDataInputStream in = counting.open(file.path())) {
      return parse(file, OrcChecks.readTail(file, in, status.getLen()), status.getLen());
    } catch (FileNotFoundException | InterruptedIOException | CorruptFileException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException("Not a valid ORC file: " + file + ": " + e.getMessage(), e);
    } finally {
      counting.closeOpenStreams();
    }
  }

  /**
   * Builds a tail from its bytes (the file's last {@code bytes.length} bytes), which {@link
   * OrcChecks#readTail} checked when it read them: the postscript and the footer, parsed here
   * rather than by orc-core, whose parser requires the postscript's magic (a file of the first ORC
   * format has none; {@code readTail} checked its header instead).
   *
   * <p>Two fields are kept as every reader reads them, so that orc-core's readers opened from this
   * tail agree: a compression block size of 0 is the default (dropped from the postscript:
   * orc-core's default applies), and a row index stride of a file without a row index in any stripe
   * is 0 (such a file has no index whatever its footer says; orc-core would otherwise select row
   * groups from an index that is not there).
   */
  private static FileTail parse(DataFile file, byte[] bytes, long fileLength) throws IOException {
    try {
      int psLength = bytes[bytes.length - 1] & 0xFF;
      OrcProto.PostScript ps = OrcProtos.postScript(bytes, bytes.length - 1 - psLength, psLength);
      long footerLength = ps.getFooterLength();
      long expected =
          1 + psLength + footerLength + ps.getMetadataLength() + ps.getStripeStatisticsLength();
      if (expected != bytes.length) {
        throw new CorruptFileException(
            "ORC file "
                + file
                + ": tail has "
                + bytes.length
                + " bytes, its postscript says "
                + expected);
      }
      if (ps.hasCompressionBlockSize() && ps.getCompressionBlockSize() == 0) {
        ps = ps.toBuilder().clearCompressionBlockSize().build();
      }
      OrcProto.Footer footer =
          OrcProtos.footer(
              bytes,
              (int) (bytes.length - 1 - psLength - footerLength),
              (int) footerLength,
              compression(ps),
              blockSize(ps));
      if (footer.getRowIndexStride() != 0 && !hasRowIndex(footer)) {
        footer = footer.toBuilder().setRowIndexStride(0).build();
      }
      OrcProto.FileTail proto =
          OrcProto.FileTail.newBuilder()
              .setPostscript(ps)
              .setFooter(footer)
              .setFileLength(fileLength)
              .setPostscriptLength(psLength)
              .build();
      return new FileTail(proto, bytes);
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          "ORC file " + file + ": tail does not parse: " + e.getMessage(), e);
    }
  }

  private static CompressionKind compression(OrcProto.PostScript ps) {
    return CompressionKind.valueOf(ps.getCompression().name());
  }

  /** The compression block size the postscript states (checked by {@link OrcChecks#readTail}). */
  private static int blockSize(OrcProto.PostScript ps) {
    return ps.hasCompressionBlockSize()
        ? (int) ps.getCompressionBlockSize()
        : OrcChecks.DEFAULT_COMPRESSION_BLOCK_BYTES;
  }

  /** Whether any stripe of {@code footer} has row index bytes. */
  private static boolean hasRowIndex(OrcProto.Footer footer) {
    for (OrcProto.StripeInformation stripe : footer.getStripesList()) {
      if (stripe.getIndexLength() > 0) {
        return true;
      }
    }
    return false;
  }

  /** The parsed tail message. */
  public OrcProto.FileTail proto() {
    return proto;
  }

  /**
   * The stripes' column statistics, from the tail's metadata section, decompressed with the
   * reader's own codec and parsed on every call (a plan asks once); empty for a file without them
   * (the first ORC format). The section follows the encrypted stripe statistics, the first bytes
   * held.
   *
   * @param file the file, for the message of a corrupt section
   * @throws CorruptFileException naming the file when the section does not decompress or parse
   */
  public List<OrcProto.StripeStatistics> stripeStatistics(DataFile file)
      throws CorruptFileException {
    OrcProto.PostScript ps = proto.getPostscript();
    if (ps.getMetadataLength() == 0) {
      return List.of();
    }
    try {
      return OrcProtos.metadata(
              bytes,
              Math.toIntExact(ps.getStripeStatisticsLength()),
              Math.toIntExact(ps.getMetadataLength()),
              compression(ps),
              blockSize(ps))
          .getStripeStatsList();
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          "Cannot read the stripe statistics of ORC file " + file + ": " + e.getMessage(), e);
    }
  }

  /** Tail bytes held (what a cache entry weighs). */
  public int length() {
    return bytes.length;
  }

  /** A fresh {@link OrcTail} over the shared bytes, for one orc-core reader. */
  public OrcTail newOrcTail() throws IOException {
    return new OrcTail(
        proto, new BufferChunk(ByteBuffer.wrap(bytes), proto.getFileLength() - bytes.length), -1);
  }

  @Override
  public String toString() {
    return "FileTail[" + bytes.length + " of " + proto.getFileLength() + " bytes]";
  }
}
