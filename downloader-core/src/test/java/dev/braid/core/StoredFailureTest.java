package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stored form of a failure: what each kind and detail is written as, and that it reads back the same. */
class StoredFailureTest {
  @Test
  void theClassNameAsBeforeThenTheStatusOrDetail() {
    assertEquals("HttpStatusException:404", StoredFailure.encode(new HttpStatusException(404, "HTTP 404")));
    assertEquals("IntegrityException:checksum",
        StoredFailure.encode(new IntegrityException("mismatch", null, FailureDetail.CHECKSUM)));
    assertEquals("IntegrityException", StoredFailure.encode(new IntegrityException("ranges")));
    assertEquals("NetworkException:name-resolution",
        StoredFailure.encode(new NetworkException("cannot resolve", new UnknownHostException("nowhere"))));
    assertEquals("LocalFileException:disk-full",
        StoredFailure.encode(new LocalFileException("no space", null, FailureDetail.DISK_FULL)));
    assertEquals("ProxyAuthenticationException", StoredFailure.encode(new ProxyAuthenticationException("407", null)),
        "a detail the class says is not written twice");
    assertEquals(null, StoredFailure.encode(null));
  }

  @Test
  void aTimeoutBehindTheRetriesIsATimeout() {
    Exception retried = new Exception("request failed", new SocketTimeoutException("no data for 2000 ms"));
    assertEquals(new DownloadFailure(FailureKind.NETWORK, FailureDetail.TIMEOUT, 0),
        DownloadFailure.of(new NetworkException("request failed", retried)));
  }

  @Test
  void eachFailureIsItsKind() {
    Map<Throwable, DownloadFailure> expected = new LinkedHashMap<>();
    expected.put(new InvalidRequestException("bad"), failure(FailureKind.USAGE, FailureDetail.NONE));
    expected.put(new NetworkException("refused"), failure(FailureKind.NETWORK, FailureDetail.NONE));
    expected.put(new ProxyAuthenticationException("407", null), failure(FailureKind.NETWORK, FailureDetail.PROXY_AUTH));
    expected.put(new RedirectRefusedException("loop", null), failure(FailureKind.HTTP_STATUS, FailureDetail.REDIRECT));
    expected.put(new RemoteChangedException("changed"), failure(FailureKind.REMOTE_CHANGED, FailureDetail.NONE));
    expected.put(new LocalFileException("held", null, FailureDetail.IN_USE), failure(FailureKind.LOCAL_IO, FailureDetail.IN_USE));
    expected.put(new LinkRefusedException("other file"), failure(FailureKind.LINK_REFUSED, FailureDetail.NONE));
    expected.put(new MetalinkException("malformed"), failure(FailureKind.METALINK, FailureDetail.NONE));
    expected.put(new DownloadRemovedException("removed"), failure(FailureKind.REMOVED, FailureDetail.NONE));
    expected.put(new IllegalStateException("bug"), failure(FailureKind.INTERNAL, FailureDetail.NONE));
    expected.forEach((t, f) -> assertEquals(f, DownloadFailure.of(t), t::toString));
    assertEquals(failure(FailureKind.NETWORK, FailureDetail.PROXY_AUTH), StoredFailure.decode("ProxyAuthenticationException"));
    assertEquals(new DownloadFailure(FailureKind.HTTP_STATUS, FailureDetail.NONE, 0), StoredFailure.decode("HttpStatusException:x"));
    assertEquals(FailureKind.LINK_REFUSED, FailureKind.ofId("link-refused"));
    assertEquals(FailureKind.INTERNAL, FailureKind.ofId("paused"));
  }

  private static DownloadFailure failure(FailureKind kind, FailureDetail detail) {
    return new DownloadFailure(kind, detail, 0);
  }
}
