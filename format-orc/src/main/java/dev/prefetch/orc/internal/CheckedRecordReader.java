package dev.prefetch.orc.internal;

import java.io.IOException;
import java.lang.reflect.Field;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.impl.ReaderImpl;
import org.apache.orc.impl.RecordReaderImpl;
import org.apache.orc.impl.reader.StripePlanner;

/**
 * orc-core's record reader whose column readers read end-checked streams, so that a corrupt run
 * ends in a {@link StreamEndException} instead of a thread spinning in orc-core's run decoder
 * (see {@link EndCheckedInStream} for the loop).
 *
 * <p>orc-core builds its stripe planner, the factory of every column stream, privately in its
 * record reader's constructor, which also reads the first stripe. Nothing in its API hands the
 * column readers other streams, so the planner is swapped here for an
 * {@link EndCheckedStripePlanner} copied from it: once, through reflection on the private field,
 * from {@link #readStripeFooter}, which orc-core calls at the start of every stripe before it
 * uses the planner (also for the first stripe, inside the constructor). The copy shares the data
 * reader and holds no stripe yet, like the original at that point.
 *
 * <p>Where the field cannot be written (a later orc-core renames it, a later JDK refuses to write
 * final fields), the reader works as orc-core's own, unguarded; {@link #isGuardAvailable()} says
 * which, and the tests check it.
 */
class CheckedRecordReader extends RecordReaderImpl {

  private static final Field PLANNER = plannerField();
  /** False once writing the field failed: a JDK that refuses to write final fields. */
  private static volatile boolean plannerWritable = PLANNER != null;

  CheckedRecordReader(ReaderImpl reader, Reader.Options options) throws IOException {
    super(reader, options);
  }

  /** A record reader over {@code options} of {@code reader}, an orc-core reader of a file. */
  static RecordReader open(Reader reader, Reader.Options options) throws IOException {
    return new CheckedRecordReader((ReaderImpl) reader, options);
  }

  /** Whether record readers get end-checked streams (see the class comment). */
  static boolean isGuardAvailable() {
    return plannerWritable;
  }

  @Override
  public OrcProto.StripeFooter readStripeFooter(StripeInformation stripe) throws IOException {
    guardPlanner();
    return super.readStripeFooter(stripe);
  }

  private void guardPlanner() {
    if (!plannerWritable) {
      return;
    }
    try {
      Object planner = PLANNER.get(this);
      if (planner instanceof StripePlanner && !(planner instanceof EndCheckedStripePlanner)) {
        PLANNER.set(this, new EndCheckedStripePlanner((StripePlanner) planner));
      }
    } catch (IllegalAccessException | RuntimeException e) {
      plannerWritable = false; // read unguarded (see the class comment)
      OrcLog.guardDisabled("orc-core's stripe planner field cannot be written", e);
    }
  }

  private static Field plannerField() {
    try {
      Field field = RecordReaderImpl.class.getDeclaredField("planner");
      if (field.getType() != StripePlanner.class) {
        OrcLog.guardDisabled("orc-core's field 'planner' has another type", null);
        return null;
      }
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException | RuntimeException e) {
      OrcLog.guardDisabled("orc-core has no accessible field 'planner'", e);
      return null; // no such field, or not accessible: read unguarded (see the class comment)
    }
  }
}
