package dev.braid.core;

/** Braid's version, from the jar manifest (a build from sources without one says "dev"). */
public final class Version {
  private Version() {}

  public static String get() {
    String v = Braid.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
