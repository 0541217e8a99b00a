package dev.prefetch.internal.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** The consumer waited in {@code next()} for the batch it needed: a prefetch miss. */
@Name("dev.prefetch.ConsumerWaited")
@Label("Consumer Waited")
@Description("The caller of next() waited for its next batch: the prefetch was behind.")
public final class ConsumerWaitedEvent extends PrefetchEvent {

  @Label("Range")
  @Description("The rows of the batch the wait ended with (\"end\" for the end of the read).")
  public String range;

  @Label("Wait")
  @Timespan(Timespan.NANOSECONDS)
  public long waitNanos;
}
