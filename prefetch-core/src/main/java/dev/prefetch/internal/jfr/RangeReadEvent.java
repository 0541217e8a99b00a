package dev.prefetch.internal.jfr;

import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * One read range read by a producer (or the single reader): the bytes and requests it sent to
 * storage, over the event's duration (from taking the range to its last batch queued).
 */
@Name("dev.prefetch.RangeRead")
@Label("Range Read")
@Description(
    "A read range was read: bytes and requests sent to storage; the duration is the "
        + "time from starting the range to its last batch (waits for queue space included).")
public final class RangeReadEvent extends PrefetchEvent {

  @Label("Range")
  public String range;

  @Label("First Row")
  public long firstRow;

  @Label("Row Count")
  public long rowCount;

  @Label("Bytes Read")
  @DataAmount
  public long bytesRead;

  @Label("Requests")
  public long requests;

  @Label("Completed")
  @Description("False when the read stopped inside the range (close or failure).")
  public boolean completed;
}
