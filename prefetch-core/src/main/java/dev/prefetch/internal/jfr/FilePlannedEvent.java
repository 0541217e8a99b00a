package dev.prefetch.internal.jfr;

import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A file was planned: its metadata read (from the cache or from storage) and its ranges cut. */
@Name("dev.prefetch.FilePlanned")
@Label("File Planned")
@Description("A file's footer or tail was read and its read ranges planned.")
public final class FilePlannedEvent extends PrefetchEvent {

  @Label("Ranges")
  @Description("Read ranges planned; the range of this event is all of them.")
  public long ranges;

  @Label("Footer Reads")
  @Description("Footer (Parquet) or tail (ORC) reads from storage; 0 when the cache had it.")
  public long footerReads;

  @Label("Footer Bytes")
  @Description("Footer or tail bytes read from storage.")
  @DataAmount
  public long footerBytes;

  @Label("From Cache")
  @Description("True when the footer or tail came from the metadata cache, not from storage.")
  public boolean fromCache;

  @Label("Bytes Read")
  @Description("All bytes read from storage while planning (footer, page indexes, ...).")
  @DataAmount
  public long bytesRead;

  @Label("Requests")
  @Description("Read requests sent to storage while planning.")
  public long requests;
}
