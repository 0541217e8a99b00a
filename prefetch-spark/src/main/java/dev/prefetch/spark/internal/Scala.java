package dev.prefetch.spark.internal;

import java.util.Map;
import scala.jdk.javaapi.CollectionConverters;

/** Conversions between Java and Scala collections at the Spark API boundary. */
final class Scala {

  private Scala() {}

  static scala.collection.immutable.Map<String, String> map(Map<String, String> map) {
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
  }
}
