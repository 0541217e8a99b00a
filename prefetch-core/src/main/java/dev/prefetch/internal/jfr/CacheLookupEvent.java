package dev.prefetch.internal.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A metadata cache lookup: a hit, or a miss that loaded the value. */
@Name("dev.prefetch.CacheLookup")
@Label("Cache Lookup")
@Description("A metadata cache lookup; its duration includes the load of a miss.")
public final class CacheLookupEvent extends PrefetchEvent {

  @Label("Kind")
  public String kind;

  @Label("Position")
  @Description("Position of the cached region in the file; -1 for a whole footer or tail.")
  public long position;

  @Label("Length")
  @Description("Length of the cached region; -1 for a whole footer or tail.")
  public long length;

  @Label("Hit")
  public boolean hit;
}
