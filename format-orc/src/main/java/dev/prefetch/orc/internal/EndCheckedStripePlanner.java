package dev.prefetch.orc.internal;

import java.io.IOException;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.StreamName;
import org.apache.orc.impl.reader.StripePlanner;

/**
 * orc-core's stripe planner, handing its column readers streams that refuse to be read past their
 * end twice ({@link EndCheckedInStream}). Column readers take every stream of a stripe from {@link
 * #getStream}, once per stripe, so this is the one place to wrap them.
 */
final class EndCheckedStripePlanner extends StripePlanner {

  /** A planner with the same schema, encryption, data reader and limits as {@code planner}. */
  EndCheckedStripePlanner(StripePlanner planner) {
    super(planner);
  }

  @Override
  public InStream getStream(StreamName name) throws IOException {
    InStream stream = super.getStream(name);
    return stream == null ? null : new EndCheckedInStream(name, stream);
  }
}
