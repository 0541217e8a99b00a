package dev.prefetch.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/**
 * What every event of the reader has: the {@code prefetch} category, no stack trace (the emitting
 * site is always the same), off unless a recording asks for it, and the file it is about. The three
 * class annotations are inherited by the concrete events, and so is the field.
 */
@Category({"prefetch"})
@StackTrace(false)
@Enabled(false) // only a recording that asks for it gets it
public abstract class PrefetchEvent extends jdk.jfr.Event {

  @Label("File")
  public String file;
}
