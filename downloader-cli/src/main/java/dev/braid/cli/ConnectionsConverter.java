package dev.braid.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code -c auto} or {@code -c N}; {@link #AUTO} stands for auto. Range checks are the request's. */
final class ConnectionsConverter implements ITypeConverter<Integer> {
  static final int AUTO = -1;

  @Override
  public Integer convert(String value) {
    if (value.equalsIgnoreCase("auto")) {
      return AUTO;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is neither a number nor auto");
    }
  }
}
