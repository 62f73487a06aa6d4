package dev.braid.cli;

import java.util.OptionalInt;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code -c auto} (empty) or {@code -c N}; the request checks the range. */
final class ConnectionsConverter implements ITypeConverter<OptionalInt> {
  @Override
  public OptionalInt convert(String value) {
    if (value.equalsIgnoreCase("auto")) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is neither a number nor auto");
    }
  }
}
