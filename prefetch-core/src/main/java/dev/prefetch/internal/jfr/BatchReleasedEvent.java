package dev.prefetch.internal.jfr;

import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** The consumer released a batch, handing its arrays back to the reader. */
@Name("dev.prefetch.BatchReleased")
@Label("Batch Released")
@Description("A batch was released by its consumer (its arrays go back to the format's pool).")
public final class BatchReleasedEvent extends PrefetchEvent {

  @Label("First Row")
  public long firstRow;

  @Label("Row Count")
  public long rowCount;

  @Label("Size")
  @DataAmount
  public long bytes;

  @Label("Recycled")
  @Description("Whether the format takes the arrays back (false: left to the garbage collector).")
  public boolean recycled;
}
