package dev.braid.store.postgres;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One throwaway PostgreSQL cluster for every test class of a test run that asks for it
 * ({@code @ExtendWith(OneCluster.class)}, then a {@link PostgresCluster} parameter of a
 * {@code @BeforeAll} method): started by the first, kept in JUnit's root store and stopped when
 * the run ends (JUnit closes what that store holds). Each class makes databases of its own in it.
 * A cluster's start (initdb, then the server) is the slowest part of these tests.
 */
public final class OneCluster implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(OneCluster.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == PostgresCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(PostgresCluster.class, k -> start(), PostgresCluster.class);
  }

  private static PostgresCluster start() {
    try {
      return PostgresCluster.start();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("the PostgreSQL cluster of the tests did not start", e);
    }
  }
}
