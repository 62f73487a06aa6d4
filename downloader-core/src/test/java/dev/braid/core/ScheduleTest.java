package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;

/** Run windows and speeds by time of day, on a clock the test moves; real downloads from a loopback server. */
class ScheduleTest extends DownloadHarness {
  /** Polled every 10 ms (Awaitility's default is 100), as the loop it replaced: these waits are short. */
  private static final ConditionFactory WAIT = Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10));

  /** A clock that stands still until the test moves it. */
  static final class TestClock extends Clock {
    private volatile Instant now;

    TestClock(LocalDateTime at) {
      set(at);
    }

    void set(LocalDateTime at) {
      now = at.toInstant(ZoneOffset.UTC);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the schedule reads this clock in its own zone");
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  /** Monday 2026-11-30. */
  private static LocalDateTime monday(int hour, int minute) {
    return LocalDateTime.of(2026, 11, 30, hour, minute);
  }

  private Braid scheduled(TestClock clock, List<RunWindow> windows, SpeedSchedule speeds) throws LocalFileException {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).readTimeout(Duration.ofSeconds(2))
        .firstBackoff(Duration.ofMillis(20)).checkpointInterval(Duration.ofMillis(100)).runQueue(true)
        .clock(clock).runWindows(windows).speedSchedule(speeds).build();
    return braid;
  }

  @Test
  void aWindowThatOpensAndClosesStartsHoldsAndResumesTheDownloadByteIdentical() throws Exception {
    TestClock clock = new TestClock(monday(0, 30));
    scheduled(clock, RunWindow.parseList("Mon-Fri 01:00-02:00"), SpeedSchedule.NONE);
    Content c = Content.random(6 << 20, 31);
    server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(1 << 20);
    Path file = dir.resolve("f.bin");
    WAIT.alias("the queue did not see that it is outside its window").until(() -> !braid.inRunWindow());
    Download d = braid.submit(request("/f.bin", file).connections(2).build());
    // three turns of the queue's loop: it must not start outside its window
    Awaitility.await("queued outside the window").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
        .until(() -> d.state() == DownloadState.QUEUED);
    assertEquals(0, server.requests().size(), "a request went out outside the window");

    clock.set(monday(1, 0));
    awaitProgress(d, 1 << 20);
    clock.set(monday(2, 0));
    WAIT.alias("the closed window did not stop the download: " + d).until(() -> d.state() == DownloadState.QUEUED);
    long kept = d.progress().done();
    assertTrue(kept >= 1 << 20 && kept < c.size(), "progress " + kept);
    WAIT.alias("the held run did not end").until(() -> d.result().isDone());
    assertTrue(d.result().isCompletedExceptionally());

    // Tuesday, inside the window again: it continues from its bytes
    clock.set(monday(1, 30).plusDays(1));
    WAIT.alias("it did not resume in the next window: " + d).until(() -> d.state() == DownloadState.COMPLETED);
    DownloadResult r = d.result().join();
    assertEquals(c.sha256Hex(), sha256(file));
    assertTrue(r.bytesReused() >= kept - (1 << 20), "reused " + r.bytesReused() + " of " + kept + ": " + r + " " + d.notes() + d.restartReason());
  }

  @Test
  void aSpeedScheduleSwitchChangesTheRateOfARunningDownload() throws Exception {
    TestClock clock = new TestClock(monday(9, 0));
    scheduled(clock, List.of(), SpeedSchedule.parse("09:00-18:00=256K,18:00-09:00=0"));
    Content c = Content.random(4 << 20, 32);
    server.serve("/f.bin", c);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(2).build());
    awaitProgress(d, 256 << 10);
    assertEquals(256 << 10, braid.rateLimit());
    long t0 = System.nanoTime();
    long d0 = d.progress().done();
    awaitProgress(d, d0 + (512 << 10));
    double limited = (d.progress().done() - d0) / ((System.nanoTime() - t0) / 1e9);
    assertTrue(limited < 400 << 10, "limited to 256K/s, measured " + limited);

    long t1 = System.nanoTime();
    long d1 = d.progress().done();
    clock.set(monday(18, 0));
    WAIT.alias("the 18:00 entry did not lift the limit").until(() -> braid.rateLimit() == 0);
    DownloadResult r = await(d);
    double free = (r.length() - d1) / ((System.nanoTime() - t1) / 1e9);
    assertTrue(free > 4 * limited, "after the switch " + free + " B/s, before " + limited);
    assertEquals(c.sha256Hex(), sha256(r.file()));
  }

  @Test
  void aLimitSetByHandHoldsUntilTheNextEntryAndWindowsChangeLive() throws Exception {
    TestClock clock = new TestClock(monday(10, 0));
    scheduled(clock, List.of(), SpeedSchedule.parse("09:00-18:00=1M"));
    WAIT.alias("the schedule's limit was not applied").until(() -> braid.rateLimit() == 1 << 20);
    braid.rateLimit(300_000);
    assertEquals(300_000, braid.rateLimit());
    clock.set(monday(18, 0));
    // no entry at 18:00: the limit set by hand applies
    Awaitility.await("the limit set by hand").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
        .until(() -> braid.rateLimit() == 300_000);
    braid.runWindows(RunWindow.parseList("Sat+Sun 00:00-24:00"));
    WAIT.alias("a window set while running was not applied").until(() -> !braid.inRunWindow());
    braid.runWindows(List.of());
    WAIT.alias("removing the windows did not open the queue").until(braid::inRunWindow);
  }

  @Test
  void aQueueRunsByItsStoredScheduleUnlessTheBuilderGivesOne() throws Exception {
    braid.saveSetting(RunWindow.SETTING, "Sat+Sun 00:00-24:00");
    braid.saveSetting(SpeedSchedule.SETTING, "00:00-24:00=100K");
    braid.close();
    TestClock clock = new TestClock(monday(12, 0));
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).clock(clock).storedSchedule(true).build();
    WAIT.alias("the stored schedule was not applied").until(() -> !braid.inRunWindow() && braid.rateLimit() == 100 << 10);
    assertEquals("Sat+Sun 00:00-24:00", RunWindow.toText(braid.runWindows()));
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).clock(clock).storedSchedule(true)
        .runWindows(List.of()).build();
    assertTrue(braid.runWindows().isEmpty());
    assertEquals("00:00-24:00=100K", braid.speedSchedule().toString());
  }

  @Test
  void windowsParseDaysRangesAndMidnight() {
    RunWindow w = RunWindow.parse("Fri-Mon 22:00-06:00");
    assertEquals(java.util.EnumSet.of(DayOfWeek.FRIDAY, DayOfWeek.SATURDAY, DayOfWeek.SUNDAY, DayOfWeek.MONDAY), w.days());
    assertTrue(w.contains(monday(5, 59)));
    // Monday evening starts Monday's window; Tuesday morning is still in it
    assertTrue(w.contains(monday(23, 0).plusDays(1).minusDays(1)));
    assertTrue(w.contains(monday(5, 0).plusDays(1)));
    assertFalse(w.contains(monday(23, 0).plusDays(1)));
    assertFalse(w.contains(monday(6, 0)));
    assertEquals("Mon+Wed 01:00-24:00", RunWindow.parse("mon+wed 1:00-24:00").toString());
    assertEquals("Mon-Wed+Fri+Sun 02:00-03:00", RunWindow.parse("Sun+Mon-Wed+Fri 02:00-03:00").toString());
    assertTrue(RunWindow.parse("18:00-24:00").contains(monday(23, 59)));
    assertTrue(RunWindow.parse("Sun 00:00-00:00").contains(monday(12, 0).minusDays(1)));
    assertEquals("09:00-18:00=2M,18:00-09:00=0", SpeedSchedule.parse("09:00-18:00=2M, 18:00-09:00=0").toString());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> RunWindow.parse("Mon-Fry 01:00-02:00"));
    assertTrue(bad.getMessage().contains("'Fry' is not a day"), bad.getMessage());
    assertThrows(IllegalArgumentException.class, () -> RunWindow.parse("01:00"));
    assertThrows(IllegalArgumentException.class, () -> SpeedSchedule.parse("09:00-18:00=fast"));
    assertThrows(IllegalArgumentException.class, () -> SpeedSchedule.parse("09:00-18:00"));
  }

}
