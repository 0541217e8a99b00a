package dev.prefetch.internal.runtime;

/** Runs producers' slices (see {@link Exchange}): submits them, or runs one on the consumer. */
interface Slices {
  /** Submits a slice of {@code producer} (now {@code QUEUED}) to the executor. */
  void submit(int producer);

  /** Runs a slice of {@code producer} (already {@code RUNNING}) on the calling consumer. */
  void help(int producer);
}
