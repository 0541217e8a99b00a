package dev.prefetch.internal.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * A producer waited: to queue a batch its queue had no room for, or for the memory budget before
 * decoding the next batch of its range.
 */
@Name("dev.prefetch.ProducerBlocked")
@Label("Producer Blocked")
@Description("A producer waited for queue space (queue full) or for the memory budget.")
public final class ProducerBlockedEvent extends PrefetchEvent {

  @Label("Range")
  @Description("The rows of the batch that waited, or of the range whose next batch waited.")
  public String range;

  @Label("Reason")
  @Description("queue-full or budget")
  public String reason;

  @Label("Wait")
  @Timespan(Timespan.NANOSECONDS)
  public long waitNanos;
}
