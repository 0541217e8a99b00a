package dev.prefetch.internal.runtime;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.ReadRange;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The assignment of tasks (a file's read range, numbered in file-then-row order) to producers: the
 * claim cursor and who claimed each task. All state is guarded by the exchange's lock; planning,
 * which reads metadata, happens outside it ({@link Exchange#claim}).
 */
final class TaskTable {

  /** A claimed task: read {@code range} of file {@code fileIndex} (planned as {@code plan}). */
  record Task(int seq, int fileIndex, FilePlan plan, ReadRange range) {}

  /**
   * One step of a claim: a task, or the file to plan before the claim can go on ({@code planFile}),
   * and in either case a file whose ranges were all handed out ({@code doneFile}, -1 if none),
   * whose plan the caller releases outside the lock.
   */
  record Step(Task task, int planFile, int doneFile) {}

  private final ReentrantLock lock;
  private final FileSequence files;

  @GuardedBy("lock")
  private int[] owner = new int[64];

  @GuardedBy("lock")
  private int claimed;

  @GuardedBy("lock")
  private int cursorFile;

  @GuardedBy("lock")
  private int cursorRange;

  @GuardedBy("lock")
  private boolean allClaimed;

  TaskTable(ReentrantLock lock, FileSequence files) {
    this.lock = lock;
    this.files = files;
  }

  /**
   * Claims the next task for {@code producer}; null when every task is claimed (then {@link
   * #allClaimed()} holds).
   */
  @GuardedBy("lock")
  Step claim(int producer) {
    int doneFile = -1;
    while (cursorFile < files.size()) {
      FilePlan plan = files.plannedOrNull(cursorFile);
      if (plan == null) {
        return new Step(null, cursorFile, doneFile);
      }
      if (cursorRange >= plan.ranges().size()) {
        if (doneFile >= 0) {
          return new Step(null, -1, doneFile); // one released file per step
        }
        doneFile = cursorFile;
        cursorFile++;
        cursorRange = 0;
        continue;
      }
      int seq = claimed++;
      if (seq == owner.length) {
        owner = Arrays.copyOf(owner, owner.length * 2);
      }
      owner[seq] = producer;
      return new Step(
          new Task(seq, cursorFile, plan, plan.ranges().get(cursorRange++)), -1, doneFile);
    }
    allClaimed = true;
    return doneFile >= 0 ? new Step(null, -1, doneFile) : null;
  }

  /** Tasks claimed so far; task numbers below it have an owner. */
  @GuardedBy("lock")
  int claimed() {
    return claimed;
  }

  /** The producer that claimed task {@code seq} ({@code seq < claimed()}). */
  @GuardedBy("lock")
  int owner(int seq) {
    return owner[seq];
  }

  /** Whether every task of every file has been claimed. */
  @GuardedBy("lock")
  boolean allClaimed() {
    return allClaimed;
  }
}
