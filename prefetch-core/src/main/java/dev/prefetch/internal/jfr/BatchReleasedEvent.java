package dev.prefetch.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The consumer released a batch, handing its arrays back to the reader. */
@Name("dev.prefetch.BatchReleased")
@Label("Batch Released")
@Category({"prefetch"})
@Description("A batch was released by its consumer (its arrays go back to the format's pool).")
@StackTrace(false)
@Enabled(false) // only a recording that asks for it gets it
public final class BatchReleasedEvent extends jdk.jfr.Event {

  @Label("File")
  public String file;

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
