package dev.braid.gui;

/** Placeholder. */
public final class Main {
  public static void main(String[] args) {}
}
