package dev.prefetch.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** The consumer waited in {@code next()} for the batch it needed: a prefetch miss. */
@Name("dev.prefetch.ConsumerWaited")
@Label("Consumer Waited")
@Category({"prefetch"})
@Description("The caller of next() waited for its next batch: the prefetch was behind.")
@StackTrace(false)
@Enabled(false) // only a recording that asks for it gets it
public final class ConsumerWaitedEvent extends jdk.jfr.Event {

  @Label("File")
  public String file;

  @Label("Range")
  @Description("The rows of the batch the wait ended with (\"end\" for the end of the read).")
  public String range;

  @Label("Wait")
  @Timespan(Timespan.NANOSECONDS)
  public long waitNanos;
}
