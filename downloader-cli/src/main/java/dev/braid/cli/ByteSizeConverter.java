package dev.braid.cli;

import dev.braid.core.ByteSize;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads an option's size ({@code 4M}, {@code 500K}, {@code 1.5G}, a byte count) as {@link ByteSize} does. */
final class ByteSizeConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    try {
      return ByteSize.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
