package dev.prefetch.spark.internal;

import java.util.List;
import java.util.Map;
import scala.jdk.javaapi.CollectionConverters;

/** Conversions between Java and Scala collections at the Spark API boundary. */
final class Scala {

  private Scala() {
  }

  static scala.collection.immutable.Map<String, String> map(Map<String, String> map) {
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
  }

  static <T> scala.collection.immutable.Seq<T> seq(List<T> list) {
    return CollectionConverters.asScala(list).toSeq();
  }

  static <T> List<T> list(scala.collection.Seq<T> seq) {
    return CollectionConverters.asJava(seq);
  }
}
