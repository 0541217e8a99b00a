package dev.prefetch.internal.runtime;

import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.ReadRange;
import java.util.Arrays;

/**
 * The assignment of tasks (a file's read range, numbered in file-then-row order) to producers: the
 * claim cursor and who claimed each task. Plain data: not thread-safe, touched only by the {@link
 * Exchange} while it holds its lock; planning, which reads metadata, happens outside it ({@link
 * Exchange#claim}).
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

  private final TaskSource files;

  private int[] owner = new int[64];

  private int claimed;

  private int cursorFile;

  private int cursorRange;

  private boolean allClaimed;

  TaskTable(TaskSource files) {
    this.files = files;
  }

  /**
   * Claims the next task for {@code producer}; null when every task is claimed (then {@link
   * #allClaimed()} holds).
   */
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
  int claimed() {
    return claimed;
  }

  /** The producer that claimed task {@code seq} ({@code seq < claimed()}). */
  int owner(int seq) {
    return owner[seq];
  }

  /** Whether every task of every file has been claimed. */
  boolean allClaimed() {
    return allClaimed;
  }
}
