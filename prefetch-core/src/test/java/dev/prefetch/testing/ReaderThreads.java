package dev.prefetch.testing;

import java.util.ArrayList;
import java.util.List;

/** Finds producer threads of prefetching readers, so tests can prove none outlives its reader. */
public final class ReaderThreads {

  /** The prefix every producer thread name starts with. */
  public static final String PREFIX = "prefetch-";

  private ReaderThreads() {}

  /** Names of live producer threads. */
  public static List<String> live() {
    List<String> names = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.isAlive() && thread.getName().startsWith(PREFIX)) {
        names.add(thread.getName());
      }
    }
    return names;
  }

  /** Names of live producer threads whose name contains {@code readerName}. */
  public static List<String> live(String readerName) {
    List<String> names = new ArrayList<>();
    for (String name : live()) {
      if (name.contains(readerName)) {
        names.add(name);
      }
    }
    return names;
  }

  /** Throws AssertionError listing any live producer thread. */
  public static void assertNoneAlive() {
    List<String> names = live();
    if (!names.isEmpty()) {
      throw new AssertionError("producer threads still alive: " + names);
    }
  }
}
