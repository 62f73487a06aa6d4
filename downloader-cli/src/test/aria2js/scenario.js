// Drives an aria2 JSON-RPC server (braid daemon or aria2c) with aria2.js over WebSocket and HTTP,
// and prints what it saw as one JSON object on stdout for DaemonAria2ClientTest to judge.
// Usage: node scenario.js PORT SECRET FAST_URL SLOW_URL
"use strict";
const Aria2 = require("aria2");

const [port, secret, fastUrl, slowUrl] = process.argv.slice(2);
const aria2 = new Aria2({ host: "127.0.0.1", port: Number(port), secure: false, secret, path: "/jsonrpc" });
const events = [];
const waiters = [];

for (const name of ["onDownloadStart", "onDownloadPause", "onDownloadStop", "onDownloadComplete", "onDownloadError"]) {
  aria2.on(name, ([{ gid }]) => {
    events.push({ event: name, gid });
    for (const w of waiters.slice()) {
      if (w.name === name && w.gid === gid) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
}

// resolves on the notification, also one heard before the call (the wait is registered late)
function heard(name, gid) {
  if (events.some((e) => e.event === name && e.gid === gid)) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    waiters.push({ name, gid, resolve });
    setTimeout(() => reject(new Error(`no ${name} for ${gid} within 20 s; heard ${JSON.stringify(events)}`)), 20000);
  });
}

function heardAgain(name, gid, count) {
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (events.filter((e) => e.event === name && e.gid === gid).length >= count) {
        clearInterval(poll);
        resolve();
      }
    }, 20);
    setTimeout(() => { clearInterval(poll); reject(new Error(`${name} x${count} for ${gid} not heard`)); }, 20000);
  });
}

async function until(check, what) {
  const deadline = Date.now() + 20000;
  let last;
  while (Date.now() < deadline) {
    last = await check();
    if (last === true) {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}; last seen ${JSON.stringify(last)}`);
}

// true once the download's status is the one wanted, else the status seen
async function statusIs(gid, wanted) {
  const s = await aria2.call("tellStatus", gid, ["status"]);
  return s.status === wanted ? true : s;
}

async function main() {
  await aria2.open();
  const out = {};
  out.version = await aria2.call("getVersion");
  const [fast] = await Promise.all([aria2.call("addUri", [fastUrl], { out: "fast.bin" })]);
  out.fast = fast;
  await heard("onDownloadStart", fast);
  await heard("onDownloadComplete", fast);
  out.fastStatus = await aria2.call("tellStatus", fast);
  out.fastFiltered = await aria2.call("tellStatus", fast, ["gid", "status", "completedLength"]);
  out.fastFiles = await aria2.call("getFiles", fast);

  const slow = await aria2.call("addUri", [slowUrl], { out: "slow.bin" });
  out.slow = slow;
  await heard("onDownloadStart", slow);
  out.active = await aria2.call("tellActive", ["gid", "status"]);
  out.activeFull = await aria2.call("tellActive");
  out.paused = await aria2.call("forcePause", slow);
  await heard("onDownloadPause", slow);
  await until(() => statusIs(slow, "paused"), "paused");
  out.waiting = await aria2.call("tellWaiting", 0, 10);
  // what AriaNg's task pages call besides: addUri with a position, changeUri (also of the first URI), changePosition
  out.later = await aria2.call("addUri", [fastUrl], { out: "later.bin", pause: "true" });
  out.first = await aria2.call("addUri", [fastUrl], { out: "first.bin", pause: "true" }, 0);
  const gids = async () => (await aria2.call("tellWaiting", 0, 10, ["gid"])).map((s) => s.gid);
  out.waitingOrder = await gids();
  out.uriAdded = await aria2.call("changeUri", out.later, 1, [], [slowUrl]);
  out.urisAfterAdd = (await aria2.call("getUris", out.later)).map((u) => u.uri);
  out.uriSwapped = await aria2.call("changeUri", out.later, 1, [fastUrl], [slowUrl + "?fresh"], 0);
  out.urisAfterSwap = (await aria2.call("getUris", out.later)).map((u) => u.uri);
  out.positioned = await aria2.call("changePosition", out.later, 0, "POS_SET");
  out.waitingOrder2 = await gids();
  out.unpaused = await aria2.call("unpause", slow);
  await heardAgain("onDownloadStart", slow, 2);
  // both servers know the length before the remove (aria2c learns it a moment after its start),
  // so that the stopped entries compared below have the same fields
  await until(async () => (await aria2.call("tellStatus", slow, ["totalLength"])).totalLength !== "0" || "no length yet", "length known");
  out.removed = await aria2.call("forceRemove", slow);
  await heard("onDownloadStop", slow);
  await until(() => statusIs(slow, "removed"), "removed");
  out.stopped = await aria2.call("tellStopped", 0, 10);
  out.stoppedLast = await aria2.call("tellStopped", -1, 1);
  out.multicall = await aria2.multicall([["getGlobalStat"], ["tellStatus", fast, ["gid", "status"]]]);
  out.changed = await aria2.call("changeGlobalOption", { "max-overall-download-limit": "1048576", "max-concurrent-downloads": "3" });
  const global = await aria2.call("getGlobalOption");
  out.globalOption = { "max-overall-download-limit": global["max-overall-download-limit"],
    "max-concurrent-downloads": global["max-concurrent-downloads"] };
  out.globalStat = await aria2.call("getGlobalStat");
  await aria2.close();
  // the same over HTTP (no WebSocket open: aria2.js posts)
  out.httpStatus = await aria2.call("tellStatus", fast, ["gid", "status"]);
  out.events = events;
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().then(() => process.exit(0), (e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
