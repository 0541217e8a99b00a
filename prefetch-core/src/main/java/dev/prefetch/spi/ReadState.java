package dev.prefetch.spi;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What a format keeps for a whole read, shared by every range reader the read opens, over all its
 * files: pools of arrays that released batches give back, so that the next file's batches are built
 * in them instead of in new ones. The runtime makes one per read ({@link
 * FilePlan#openReader(MemoryLedger, ReadState)}) and drops it when the read closes.
 *
 * <p>Values are keyed by their class: a format keeps one object of each class of its own.
 *
 * <p>Thread-safe: producers of a read open range readers concurrently; what a format keeps here
 * must be thread-safe itself.
 */
public final class ReadState {

  private final ConcurrentHashMap<Class<?>, Object> values = new ConcurrentHashMap<>();

  /** The read's object of class {@code type}, made by {@code create} the first time it is asked. */
  public <T> T shared(Class<T> type, Supplier<? extends T> create) {
    return type.cast(values.computeIfAbsent(type, t -> create.get()));
  }
}
