package dev.prefetch.internal.runtime;

import dev.prefetch.ReadException;
import dev.prefetch.spi.FilePlan;

/**
 * The read's files as the {@link Exchange} hands out their ranges: how many there are, which are
 * planned, how to plan one, and that one's ranges are all handed out. {@link FileSequence} is the
 * read's; a test may give the exchange plans of its own. Thread-safe: producers plan and claim
 * concurrently, and the exchange calls every method but {@link #plannedOrNull} and {@link #size}
 * outside its lock.
 */
interface TaskSource {

  /** The number of files. */
  int size();

  /** The plan of file {@code index} if it is planned, else null; never blocks. */
  FilePlan plannedOrNull(int index);

  /** Plans file {@code index} (or waits for the producer planning it), naming it on failure. */
  FilePlan planForRead(int index) throws ReadException;

  /** Every range of file {@code index} was handed out: its plan may go with its last reader. */
  void claimsDone(int index);
}
