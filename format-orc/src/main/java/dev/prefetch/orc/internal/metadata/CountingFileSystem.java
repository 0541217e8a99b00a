package dev.prefetch.orc.internal.metadata;

import dev.prefetch.spi.CountingInputStream;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A view of a filesystem for orc-core whose opened streams are core's {@link CountingInputStream}:
 * they count what they read into {@link ScanCounters} (orc-core's positioned reads, also behind its
 * vectored reads, are one request each) and cut large local reads. Besides, the view remembers the
 * streams it opened and not yet closed, for {@link #closeOpenStreams}.
 */
public final class CountingFileSystem extends FilterFileSystem {

  private final ScanCounters counters;
  private final String extraBytesCounter;

  /** Whether the file is on the local filesystem, whose large reads are cut. */
  private final boolean localFile;

  /** Streams opened and not yet closed: orc-core leaks one when a record reader fails to open. */
  private final Set<CountingInputStream> openStreams = ConcurrentHashMap.newKeySet();

  /**
   * @param fs the real filesystem
   * @param counters where to count
   * @param extraBytesCounter a counter that also gets every byte read, or null
   */
  public CountingFileSystem(FileSystem fs, ScanCounters counters, String extraBytesCounter) {
    super(Objects.requireNonNull(fs, "fs is null"));
    this.counters = Objects.requireNonNull(counters, "counters is null");
    this.extraBytesCounter = extraBytesCounter;
    this.localFile = CountingInputStream.isLocal(fs);
    setConf(fs.getConf());
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    CountingInputStream stream =
        new CountingInputStream(
            fs.open(f, bufferSize), counters, extraBytesCounter, localFile, openStreams::remove);
    openStreams.add(stream);
    return new FSDataInputStream(stream);
  }

  /**
   * Closes every stream opened through this view and not closed yet. orc-core's record reader opens
   * its stream in its constructor and does not close it when the constructor fails (an I/O error or
   * an interrupt while it reads the first stripe), so its owner cleans up here.
   */
  public void closeOpenStreams() throws IOException {
    IOException failure = null;
    for (CountingInputStream stream : openStreams) {
      try {
        stream.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public FSDataInputStream open(Path f) throws IOException {
    return open(f, getConf() == null ? 4096 : getConf().getInt("io.file.buffer.size", 4096));
  }
}
