package dev.prefetch.cli.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;

/**
 * A JFR recording of the reader's events, started in this process: the events named in the README
 * ({@code dev.prefetch.*}), every one of them (no threshold), written to a file on close.
 */
public final class EventRecording implements AutoCloseable {

  /** The reader's JFR event names. */
  public static final List<String> EVENTS =
      List.of(
          "dev.prefetch.FilePlanned",
          "dev.prefetch.RangeRead",
          "dev.prefetch.ProducerBlocked",
          "dev.prefetch.ConsumerWaited",
          "dev.prefetch.BatchReleased",
          "dev.prefetch.CacheLookup");

  private final Recording recording;
  private final Path out;

  private EventRecording(Recording recording, Path out) {
    this.recording = recording;
    this.out = out;
  }

  /** Starts recording the reader's events, to be written to {@code out} on close. */
  public static EventRecording start(Path out) {
    Recording recording = new Recording();
    recording.setName("prefetch-scan");
    recording.setToDisk(true);
    for (String name : EVENTS) {
      recording.enable(name).withThreshold(java.time.Duration.ZERO).withoutStackTrace();
    }
    recording.start();
    return new EventRecording(recording, out);
  }

  /** Stops the recording and writes it. */
  @Override
  public void close() throws IOException {
    try {
      recording.stop();
      recording.dump(out);
    } finally {
      recording.close();
    }
  }
}
