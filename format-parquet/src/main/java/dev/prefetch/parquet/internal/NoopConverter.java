package dev.prefetch.parquet.internal;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;

/**
 * The converter tree parquet-hadoop's {@code ColumnReadStoreImpl} walks to find a column's
 * converter. Values are taken from the column readers directly, so every converter ignores what it
 * is given; children are made on demand, so a wide schema costs nothing until a column is read.
 */
final class NoopConverter extends GroupConverter {

  private static final PrimitiveConverter PRIMITIVE = new PrimitiveConverter() {};

  private final GroupType type;

  NoopConverter(GroupType type) {
    this.type = type;
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return type.getType(fieldIndex).isPrimitive()
        ? PRIMITIVE
        : new NoopConverter(type.getType(fieldIndex).asGroupType());
  }

  @Override
  public void start() {}

  @Override
  public void end() {}
}
