package dev.braid.core.internal.http;

import java.util.List;
import org.apache.hc.client5.http.cookie.Cookie;
import org.apache.hc.client5.http.cookie.CookieOrigin;
import org.apache.hc.client5.http.cookie.CookieSpec;
import org.apache.hc.client5.http.cookie.CookieSpecFactory;
import org.apache.hc.client5.http.cookie.MalformedCookieException;
import org.apache.hc.client5.http.cookie.StandardCookieSpec;
import org.apache.hc.client5.http.impl.cookie.IgnoreCookieSpecFactory;
import org.apache.hc.client5.http.impl.cookie.RFC6265CookieSpecFactory;
import org.apache.hc.client5.http.psl.PublicSuffixMatcherLoader;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.config.Lookup;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The client's cookie specifications (RFC 6265, strict and relaxed, as HttpClient's defaults),
 * with the public suffix list read when a cookie is first parsed or sent rather than when the
 * client is built: reading it took ~40 ms of every start-up (a tenth of a 1 MiB download's wall
 * time), and most downloads meet no cookie. The client asks for a specification on every
 * request; one that never sees a cookie never loads the list.
 */
final class LazyCookieSpecs {
  private LazyCookieSpecs() {}

  static Lookup<CookieSpecFactory> registry() {
    return RegistryBuilder.<CookieSpecFactory>create()
        .register(StandardCookieSpec.STRICT, new Factory(RFC6265CookieSpecFactory.CompatibilityLevel.STRICT))
        .register(StandardCookieSpec.RELAXED, new Factory(RFC6265CookieSpecFactory.CompatibilityLevel.RELAXED))
        .register(StandardCookieSpec.IGNORE, new IgnoreCookieSpecFactory())
        .build();
  }

  /** Makes a deferred specification per request; the real factory is built once, by the first that needs it. */
  private static final class Factory implements CookieSpecFactory {
    private final RFC6265CookieSpecFactory.CompatibilityLevel level;
    private volatile CookieSpecFactory real;

    Factory(RFC6265CookieSpecFactory.CompatibilityLevel level) {
      this.level = level;
    }

    @Override
    public CookieSpec create(HttpContext context) {
      return new Deferred(this, context);
    }

    CookieSpecFactory real() {
      CookieSpecFactory f = real;
      if (f == null) {
        // racing threads may both build one; they are equal and the list itself is loaded once
        f = new RFC6265CookieSpecFactory(level, PublicSuffixMatcherLoader.getDefault());
        real = f;
      }
      return f;
    }
  }

  /** A request's specification, made on its first use. Used by one request's thread. */
  private static final class Deferred implements CookieSpec {
    private final Factory factory;
    private final HttpContext context;
    private CookieSpec spec;

    Deferred(Factory factory, HttpContext context) {
      this.factory = factory;
      this.context = context;
    }

    private CookieSpec spec() {
      if (spec == null) {
        spec = factory.real().create(context);
      }
      return spec;
    }

    @Override
    public List<Cookie> parse(Header header, CookieOrigin origin) throws MalformedCookieException {
      return spec().parse(header, origin);
    }

    @Override
    public void validate(Cookie cookie, CookieOrigin origin) throws MalformedCookieException {
      spec().validate(cookie, origin);
    }

    @Override
    public boolean match(Cookie cookie, CookieOrigin origin) {
      return spec().match(cookie, origin);
    }

    @Override
    public List<Header> formatCookies(List<Cookie> cookies) {
      return spec().formatCookies(cookies);
    }
  }
}
