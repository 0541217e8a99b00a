package dev.prefetch.spark.internal;

import java.util.Map;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Java meeting Scala at the Spark API boundary: collection conversions, and checked exceptions
 * thrown where Spark's Scala callers expect them although the Scala signature declares none.
 */
final class Scala {

  private Scala() {}

  static scala.collection.immutable.Map<String, String> map(Map<String, String> map) {
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
  }

  /**
   * Throws {@code e} as it is, checked or not: {@code throw Scala.<RuntimeException>sneaky(e)}. For
   * a method overriding Scala's that must throw a checked exception a Scala caller catches by type.
   */
  @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"})
  static <E extends Throwable> E sneaky(Throwable e) throws E {
    throw (E) e;
  }
}
