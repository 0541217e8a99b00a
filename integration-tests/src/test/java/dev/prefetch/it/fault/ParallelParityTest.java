package dev.prefetch.it.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import dev.prefetch.it.Format;
import dev.prefetch.it.Scans;
import dev.prefetch.it.Scans.Result;
import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Without any fault, prefetching reads with 1 to 8 producers return exactly what the single reader
 * returns, on the local filesystem and through the fault-injecting one, twice over: the baseline
 * every fault test compares against.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelParityTest {

  @TempDir Path dir;

  @AfterEach
  void noLeaks() {
    ReaderThreads.assertNoneAlive();
    FaultInjectingFileSystem.assertAllStreamsClosed();
    FaultInjectingFileSystem.reset();
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void everyParallelismReadsTheSameDataAsTheSingleReader(Format format) throws IOException {
    Path file = format.write(Files.createDirectories(dir.resolve(format.name())), 6_000);
    org.apache.hadoop.fs.Path local = new org.apache.hadoop.fs.Path(file.toUri());
    Result expected = Scans.readAll(local, Scans.single(), ReadContext.defaults());
    assertThat(expected.rows()).isEqualTo(6_000);
    ReadContext faulty =
        ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
    for (int round = 0; round < 2; round++) {
      for (int parallelism = 1; parallelism <= 8; parallelism++) {
        assertThat(
                Scans.readAll(
                    local, Scans.prefetching(parallelism).build(), ReadContext.defaults()))
            .as("file:, parallelism %d", parallelism)
            .isEqualTo(expected);
        assertThat(
                Scans.readAll(
                    FaultInjectingFileSystem.path(file),
                    Scans.prefetching(parallelism).build(),
                    faulty))
            .as("faulty:, parallelism %d", parallelism)
            .isEqualTo(expected);
      }
    }
  }
}
