package dev.braid.core;

/** Braid's version, from the jar manifest (a build from sources without one says "dev"). */
public final class Version {
  private Version() {}

  /** {@return the version of this build, or {@code dev} for one without a jar manifest} */
  public static String get() {
    String v = Braid.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
