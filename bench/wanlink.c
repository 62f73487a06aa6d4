/*
 * bench/wanlink.c - an emulated WAN link in user space, for bench/ranged.sh's LINK mode on
 * kernels built without sch_netem (many VM and container kernels, e.g. Firecracker guests).
 *
 * It creates two TUN devices: the first in the network namespace it is started in (the client
 * side), the second inside the named namespace (the server side, where nginx runs). Every IP
 * packet the kernel routes into one device is read here, passed through a model of one link
 * direction, and written into the other device. Each direction on its own:
 *
 *   1. random loss: the packet is dropped with probability LOSS % (independent draws, like
 *      netem's `loss P%`);
 *   2. a bottleneck of RATE Mbit/s with a drop-tail buffer of QUEUE ms of link time: the packet
 *      leaves the bottleneck when the ones before it have been sent, and is dropped if it
 *      would have to wait longer than QUEUE ms (like netem's `rate` with a `limit`);
 *   3. a propagation delay of DELAY ms, plus a uniform jitter of +-JITTER ms that never
 *      reorders packets (a packet is not delivered before the one sent ahead of it).
 *
 * Usage: wanlink -a CLIENT_DEV -b SERVER_DEV -n NETNS [-d DELAY_MS] [-j JITTER_MS]
 *                [-l LOSS_PCT] [-r RATE_MBIT] [-q QUEUE_MS] [-s SEED]
 *   (root: it opens /dev/net/tun and enters /run/netns/NETNS)
 * Both devices exist as long as this process runs; they vanish with it. It prints "ready" on
 * stdout once both exist, and one line of counters (see print_stats) on SIGUSR1 and on exit
 * (SIGTERM, SIGINT). Devices and addresses are configured by the caller (ranged.sh).
 *
 * Why user space and not netem: see bench/README.md. The costs: two system calls and a copy
 * per packet (about 17,000 packets/s each way at 200 Mbit/s, a few % of one core), and timer
 * resolution of tens of microseconds, both small next to an RTT of tens of milliseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define SLOT_BYTES 2048          /* the devices' MTU is 1500; larger packets are dropped */
#define SLOTS 16384              /* packets held per direction (queued + in flight) */
#define BURST 64                 /* packets read from one device per wake-up at most */

struct pkt { uint64_t due_ns; uint32_t len; unsigned char data[SLOT_BYTES]; };

struct dir {
  const char *name;
  int in_fd, out_fd;
  struct pkt *ring;
  uint32_t head, tail;           /* ring[head..tail) in order of delivery */
  uint64_t link_free_ns;         /* when the bottleneck has sent everything accepted so far */
  uint64_t last_due_ns;          /* delivery time of the newest packet (no reordering) */
  uint64_t pkts, bytes, lost, queue_drops, overflow, delivered, write_errors;
};

static double delay_ms = 40, jitter_ms = 0, loss_pct = 0, rate_mbit = 0, queue_ms = 100;
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static volatile sig_atomic_t want_stats = 0, want_exit = 0;

static void die(const char *what) { fprintf(stderr, "wanlink: %s: %s\n", what, strerror(errno)); exit(1); }

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t) t.tv_sec * 1000000000ULL + (uint64_t) t.tv_nsec;
}

/* xorshift64*: fast, and the same SEED gives the same loss pattern for the same packet order */
static double uniform01(void) {
  rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
  return (double) ((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}

static int open_tun(const char *name) {
  struct ifreq ifr;
  int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) die("open /dev/net/tun");
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;          /* raw IP packets, no extra header */
  snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) die(name);
  return fd;
}

/* a packet arrives from d->in_fd at time now: loss, bottleneck queue, delay */
static void arrive(struct dir *d, uint32_t len, uint64_t now) {
  struct pkt *p;
  uint64_t start, due;
  d->pkts++; d->bytes += len;
  if (loss_pct > 0 && uniform01() * 100.0 < loss_pct) { d->lost++; return; }
  start = d->link_free_ns > now ? d->link_free_ns : now;
  if (rate_mbit > 0) {
    if (start - now > (uint64_t) (queue_ms * 1e6)) { d->queue_drops++; return; }
    d->link_free_ns = start + (uint64_t) (len * 8 * 1000.0 / rate_mbit);   /* ns on the wire */
    start = d->link_free_ns;
  }
  if (d->tail - d->head >= SLOTS) { d->overflow++; return; }
  due = start + (uint64_t) (delay_ms * 1e6);
  if (jitter_ms > 0) {
    double j = (uniform01() * 2 - 1) * jitter_ms * 1e6;
    due = (j < 0 && (uint64_t) -j > due) ? 0 : (uint64_t) ((double) due + j);
  }
  if (due < d->last_due_ns) due = d->last_due_ns;
  d->last_due_ns = due;
  p = &d->ring[d->tail % SLOTS];                /* the packet was read into this slot already */
  p->due_ns = due; p->len = len;
  d->tail++;
}

/* read what is waiting on d->in_fd (at most BURST packets) */
static void read_side(struct dir *d) {
  for (int i = 0; i < BURST; i++) {
    struct pkt *p = &d->ring[d->tail % SLOTS];
    ssize_t n;
    if (d->tail - d->head >= SLOTS) {           /* full: read into a scratch buffer and drop */
      static unsigned char scratch[SLOT_BYTES];
      n = read(d->in_fd, scratch, sizeof scratch);
      if (n <= 0) return;
      d->pkts++; d->bytes += (uint64_t) n; d->overflow++;
      continue;
    }
    n = read(d->in_fd, p->data, SLOT_BYTES);
    if (n < 0) { if (errno == EAGAIN || errno == EINTR) return; die("read"); }
    if (n == 0) return;
    arrive(d, (uint32_t) n, now_ns());
  }
}

/* write the packets whose time has come; returns the next due time or 0 */
static uint64_t deliver(struct dir *d, uint64_t now) {
  while (d->head != d->tail) {
    struct pkt *p = &d->ring[d->head % SLOTS];
    if (p->due_ns > now) return p->due_ns;
    if (write(d->out_fd, p->data, p->len) < 0) d->write_errors++; else d->delivered++;
    d->head++;
  }
  return 0;
}

static void print_stats(struct dir *d, int n) {
  /* one line: name pkts bytes lost queue_drops overflow delivered write_errors, per direction */
  printf("stats %.3f", now_ns() / 1e9);
  for (int i = 0; i < n; i++)
    printf(" %s %llu %llu %llu %llu %llu %llu %llu", d[i].name, (unsigned long long) d[i].pkts,
           (unsigned long long) d[i].bytes, (unsigned long long) d[i].lost,
           (unsigned long long) d[i].queue_drops, (unsigned long long) d[i].overflow,
           (unsigned long long) d[i].delivered, (unsigned long long) d[i].write_errors);
  printf("\n");
  fflush(stdout);
}

static void on_signal(int sig) { if (sig == SIGUSR1) want_stats = 1; else want_exit = 1; }

int main(int argc, char **argv) {
  const char *client_dev = NULL, *server_dev = NULL, *netns = NULL;
  char path[256];
  int opt, client_fd, server_fd, ns_fd;
  struct dir d[2];
  struct sigaction sa;
  sigset_t blocked, unblocked;

  while ((opt = getopt(argc, argv, "a:b:n:d:j:l:r:q:s:")) != -1) {
    switch (opt) {
      case 'a': client_dev = optarg; break;
      case 'b': server_dev = optarg; break;
      case 'n': netns = optarg; break;
      case 'd': delay_ms = atof(optarg); break;
      case 'j': jitter_ms = atof(optarg); break;
      case 'l': loss_pct = atof(optarg); break;
      case 'r': rate_mbit = atof(optarg); break;
      case 'q': queue_ms = atof(optarg); break;
      case 's': rng_state = strtoull(optarg, NULL, 0) | 1; break;
      default: fprintf(stderr, "usage: wanlink -a DEV -b DEV -n NETNS [-d ms] [-j ms] [-l %%] [-r Mbit/s] [-q ms] [-s seed]\n"); return 2;
    }
  }
  if (!client_dev || !server_dev || !netns || delay_ms < 0 || jitter_ms < 0 || loss_pct < 0 ||
      loss_pct > 100 || rate_mbit < 0 || queue_ms < 0) {
    fprintf(stderr, "wanlink: -a, -b and -n are required; values must not be negative\n");
    return 2;
  }

  client_fd = open_tun(client_dev);
  /* the second device is created inside the server's namespace: enter it, create, done */
  snprintf(path, sizeof path, "/run/netns/%s", netns);
  ns_fd = open(path, O_RDONLY | O_CLOEXEC);
  if (ns_fd < 0) die(path);
  if (setns(ns_fd, CLONE_NEWNET) < 0) die("setns");
  close(ns_fd);
  server_fd = open_tun(server_dev);

  memset(d, 0, sizeof d);
  d[0].name = "up";   d[0].in_fd = client_fd; d[0].out_fd = server_fd;   /* client -> server */
  d[1].name = "down"; d[1].in_fd = server_fd; d[1].out_fd = client_fd;   /* server -> client */
  for (int i = 0; i < 2; i++)
    if (!(d[i].ring = malloc(sizeof(struct pkt) * SLOTS))) die("malloc");

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;                    /* no SA_RESTART: ppoll returns EINTR */
  sigaction(SIGUSR1, &sa, NULL); sigaction(SIGTERM, &sa, NULL); sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  /* the signals are blocked except inside ppoll, so none can slip in between the check of
     the flags and the wait (the wait may be unbounded when the link is idle) */
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGUSR1); sigaddset(&blocked, SIGTERM); sigaddset(&blocked, SIGINT);
  sigprocmask(SIG_BLOCK, &blocked, &unblocked);
  sigdelset(&unblocked, SIGUSR1); sigdelset(&unblocked, SIGTERM); sigdelset(&unblocked, SIGINT);
  printf("ready\n");
  fflush(stdout);

  while (!want_exit) {
    struct pollfd pf[2] = { { client_fd, POLLIN, 0 }, { server_fd, POLLIN, 0 } };
    uint64_t now = now_ns(), next = 0, n0, n1;
    struct timespec ts, *tsp = NULL;
    n0 = deliver(&d[0], now); n1 = deliver(&d[1], now);
    next = (n0 && n1) ? (n0 < n1 ? n0 : n1) : (n0 ? n0 : n1);
    if (next) {
      uint64_t wait = next > now ? next - now : 0;
      ts.tv_sec = (time_t) (wait / 1000000000ULL); ts.tv_nsec = (long) (wait % 1000000000ULL);
      tsp = &ts;
    }
    if (ppoll(pf, 2, tsp, &unblocked) < 0 && errno != EINTR) die("ppoll");
    if (want_stats) { want_stats = 0; print_stats(d, 2); }
    if (pf[0].revents & POLLIN) read_side(&d[0]);
    if (pf[1].revents & POLLIN) read_side(&d[1]);
    if ((pf[0].revents | pf[1].revents) & (POLLERR | POLLHUP | POLLNVAL)) { errno = EIO; die("device"); }
  }
  print_stats(d, 2);
  return 0;
}
