// Drives braid's web console in Debian's chromium (Playwright, no test runner): the steps of
// ConsoleBrowserTest, which asserts on the JSON printed at the end. Arguments: the console's URL,
// the secret, URL A, a mirror of A, URL B, the folder for the added downloads, a read-only API key,
// URL C and its SHA-256 in hex, URL D and a mirror of D that is missing, URL E, its length and SHA-256.
import { chromium } from 'playwright-core';

const [base, secret, urlA, mirrorA, urlB, folder, readKey, urlC, sha256C, urlD, missingD, urlE, lengthE, sha256E] =
  process.argv.slice(2);
const host = new URL(base).host;
const out = { steps: [], foreign: [], consoleErrors: [], pageErrors: [] };
const started = Date.now();
const step = (name) => out.steps.push(`${name} at ${Date.now() - started} ms`);

async function rpc(method, ...params) {
  const r = await fetch(new URL('jsonrpc', base), {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 'node', method, params: ['token:' + secret, ...params] }),
  });
  const answer = await r.json();
  if (answer.error) {
    throw new Error(`${method}: ${answer.error.message}`);
  }
  return answer.result;
}

/** Polls fn until it returns a truthy value (100 ms apart), or throws naming what was awaited. */
async function until(what, fn, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) {
      return last;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/** Width, height and the number of distinct colours of a canvas's pixels. */
function pixels(page, id) {
  return page.evaluate((el) => {
    // read from a copy: repeated readbacks of the page's own canvas make Chrome warn in the console
    const c = document.getElementById(el);
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(c, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4) {
      colours.add((d[i] << 24) | (d[i + 1] << 16) | (d[i + 2] << 8) | d[i + 3]);
    }
    return { width: c.width, height: c.height, colours: colours.size };
  }, id);
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('request', (r) => {
    if (new URL(r.url()).host !== host) {
      out.foreign.push(r.url());
    }
  });
  page.on('websocket', (ws) => {
    out.websocket = ws.url();
    if (new URL(ws.url()).host !== host) {
      out.foreign.push(ws.url());
    }
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      out.consoleErrors.push(`${m.type()}: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => out.pageErrors.push(String(e)));

  const response = await page.goto(base);
  out.headers = response.headers();
  step('loaded');

  // a wrong secret: a message, nothing of the queue
  await page.getByLabel('Secret').fill('not-the-secret');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').getByText(/Wrong secret/).waitFor();
  out.wrongMessage = await page.getByRole('alert').textContent();
  out.queueShownAfterWrong = await page.getByRole('button', { name: 'Pause all' }).isVisible();
  out.rowsAfterWrong = await page.locator('#queue li').count();
  step('wrong secret refused');

  // the right one, with the keyboard
  await page.getByLabel('Secret').fill(secret);
  await page.getByLabel('Secret').press('Enter');
  await page.getByRole('button', { name: 'Pause all' }).waitFor();
  out.urlAfterSignIn = page.url();
  out.storage = await page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage } }));
  step('signed in');

  // the run windows and the speed schedule, the daemon's options; a bad value is refused beside its field
  const windows = page.getByLabel('Run windows');
  out.windowsShown = await windows.inputValue();
  await windows.fill('Mon-Fri 01:00-07:00');
  await windows.press('Enter');
  await page.getByRole('status').getByText('Run windows set to Mon-Fri 01:00-07:00').waitFor();
  out.windowsSet = {
    braid: (await rpc('braid.globalOptions')).runWindows,
    aria2: (await rpc('aria2.getGlobalOption'))['braid-run-window'],
  };
  await windows.fill('Mon-Fri 25:00-07:00');
  await windows.press('Enter');
  await until('the refusal beside the field', async () => page.locator('#windows-error').textContent());
  out.windowsError = await page.locator('#windows-error').textContent();
  out.windowsInvalid = await windows.getAttribute('aria-invalid');
  out.windowsAfterBad = (await rpc('braid.globalOptions')).runWindows;
  // always again, or nothing added below would start
  await windows.fill('');
  await windows.press('Enter');
  await page.getByRole('status').getByText('Run windows: none').waitFor();
  out.windowsErrorCleared = await page.locator('#windows-error').textContent();
  out.windowsCleared = (await rpc('aria2.getGlobalOption'))['braid-run-window'];
  const schedule = page.getByLabel('Speed schedule');
  await schedule.fill('Sun 03:00-04:00=1M');
  await schedule.press('Enter');
  await page.getByRole('status').getByText('Speed schedule set to').waitFor();
  out.scheduleSet = (await rpc('aria2.getGlobalOption'))['braid-speed-schedule'];
  await schedule.fill('');
  await schedule.press('Enter');
  await page.getByRole('status').getByText('Speed schedule: none').waitFor();
  out.scheduleCleared = (await rpc('braid.globalOptions')).speedSchedule;
  step('schedule');

  // the speed limit slows what is added next enough to pause it
  await page.getByLabel('Speed limit').fill('512K');
  await page.getByLabel('Speed limit').press('Enter');
  await page.getByRole('status').getByText('Speed limit set to 512K').waitFor();
  out.limitSet = (await rpc('aria2.getGlobalOption'))['max-overall-download-limit'];

  // two downloads, A with a mirror
  await page.getByLabel('URLs').fill(`${urlA} ${mirrorA}\n\n${urlB}\n`);
  await page.getByLabel('Folder').fill(folder);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('status').getByText('Added 2 downloads').waitFor();
  const rowA = page.getByRole('listitem').filter({ hasText: 'a.bin' });
  const rowB = page.getByRole('listitem').filter({ hasText: 'b.bin' });
  await rowA.waitFor();
  await rowB.waitFor();
  out.gidA = await rowA.getAttribute('data-gid');
  out.gidB = await rowB.getAttribute('data-gid');
  out.urisA = (await rpc('aria2.getUris', out.gidA)).map((u) => u.uri);
  step('added');

  // pause and resume B while the limit holds it back
  await until('B active, its connections counted', async () => (await rowB.locator('.state').textContent()) === 'active'
    && /^[1-9]\d* connections?$/.test(await rowB.locator('.connections').textContent()));
  out.rowWhileActive = (await rowB.innerText()).replace(/\s+/g, ' ');
  await rowB.getByRole('button', { name: 'Pause', exact: true }).click();
  await until('B paused in its row', async () => (await rowB.locator('.state').textContent()) === 'paused');
  out.pausedStatus = (await rpc('aria2.tellStatus', out.gidB, ['status'])).status;
  // the focus went from Pause to Resume: Enter resumes, with the keyboard alone
  out.focusAfterPause = await page.evaluate(() => document.activeElement.textContent);
  await page.keyboard.press('Enter');
  await until('B running again', async () => ['active', 'waiting'].includes(await rowB.locator('.state').textContent()));
  out.resumedStatus = (await rpc('aria2.tellStatus', out.gidB, ['status'])).status;
  step('paused and resumed');

  // B's details: the segment map and the speed graph, drawn
  await rowB.getByRole('button', { name: 'b.bin' }).click();
  const map = page.getByRole('img', { name: 'Segment map' });
  const graph = page.getByRole('img', { name: 'Speed graph' });
  await map.waitFor();
  await graph.waitFor();
  await until('segments drawn', async () => /segments/.test(await page.locator('#map-text').textContent()));
  out.mapText = await page.locator('#map-text').textContent();
  out.map = await until('a map of done and undone parts', async () => {
    const p = await pixels(page, 'segment-map');
    return p.colours >= 3 ? p : null;
  });
  out.graph = await until('a speed line', async () => {
    const p = await pixels(page, 'speed-graph');
    return p.colours >= 3 && /now [1-9]/.test(await page.locator('#graph-text').textContent()) ? p : null;
  });
  out.graphText = await page.locator('#graph-text').textContent();
  step('details drawn');

  // the fleet, opened with the keyboard: this daemon, driving what runs
  await page.locator('#fleet-panel > summary').focus();
  await page.keyboard.press('Enter');
  const self = page.locator('#workers tbody tr').filter({ hasText: 'this daemon' });
  await until('this daemon in the fleet, driving', async () => (await self.count()) === 1
    && /running [1-9]\d* downloads?/.test((await self.innerText()).replace(/\s+/g, ' ')));
  out.fleetSelf = (await self.innerText()).replace(/\s+/g, ' ');
  step('fleet');

  // no limit: both complete
  await page.getByLabel('Speed limit').fill('0');
  await page.getByLabel('Speed limit').press('Enter');
  await page.getByRole('status').getByText('No speed limit').waitFor();
  out.limitCleared = (await rpc('aria2.getGlobalOption'))['max-overall-download-limit'];
  await until('both complete', async () =>
    (await rowA.locator('.state').textContent()) === 'complete' && (await rowB.locator('.state').textContent()) === 'complete',
  30000);
  out.completeA = await rpc('aria2.tellStatus', out.gidA, ['status', 'completedLength', 'files']);
  out.completeB = await rpc('aria2.tellStatus', out.gidB, ['status', 'completedLength', 'files']);
  step('completed');

  // the hosts, opened with the keyboard: what the engine learned of the file server
  await page.locator('#hosts-panel > summary').focus();
  await page.keyboard.press('Enter');
  const learned = page.locator('#hosts tbody tr').filter({ hasText: new URL(urlA).host });
  await until('the file server among the hosts', async () => (await learned.count()) === 1);
  out.hostRow = (await learned.innerText()).replace(/\s+/g, ' ');
  out.hostsViaRpc = await rpc('braid.hosts', 10);
  step('hosts');

  // remove A's row: gone from the page and from the daemon's list
  await rowA.getByRole('button', { name: 'Remove', exact: true }).click();
  await rowA.waitFor({ state: 'detached' });
  out.stoppedAfterRemove = (await rpc('aria2.tellStopped', 0, 10, ['gid'])).map((s) => s.gid);
  step('removed');

  // C with a file name and its checksum: a malformed checksum first, refused with the daemon's word, nothing added
  const entries = async () => {
    const stat = await rpc('aria2.getGlobalStat');
    return Number(stat.numActive) + Number(stat.numWaiting) + Number(stat.numStopped);
  };
  const before = await entries();
  await page.getByLabel('URLs').fill(urlC);
  await page.getByLabel('File name').fill('c-out.bin');
  await page.getByLabel('Checksum').fill('sha-256=not-hex');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('status').getByText(/refused/).waitFor();
  out.badChecksum = { notice: await page.getByRole('status').textContent(), added: (await entries()) - before,
    urlsKept: await page.getByLabel('URLs').inputValue() };
  await page.getByLabel('Checksum').fill(`sha-256=${sha256C}`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('status').getByText('Added 1 download').waitFor();
  const rowC = page.getByRole('listitem').filter({ hasText: 'c-out.bin' });
  await until('C complete', async () => (await rowC.count()) === 1 && (await rowC.locator('.state').textContent()) === 'complete');
  out.optionsC = await rpc('aria2.getOption', await rowC.getAttribute('data-gid'));
  await page.getByLabel('File name').fill('');
  await page.getByLabel('Checksum').fill('');
  step('added with a name and a checksum');

  // a list file picked with the keyboard's file input: its one line, D and a missing mirror, added and complete
  await page.getByLabel('List or Metalink file').setInputFiles({
    name: 'list.txt', mimeType: 'text/plain', buffer: Buffer.from(`# from the console\n${urlD}\t${missingD}\n`),
  });
  await page.getByRole('status').getByText('Added 1 download from list.txt').waitFor();
  const rowD = page.getByRole('listitem').filter({ hasText: 'd.bin' });
  await until('D complete', async () => (await rowD.count()) === 1 && (await rowD.locator('.state').textContent()) === 'complete');
  out.gidD = await rowD.getAttribute('data-gid');
  out.urisD = (await rpc('aria2.getUris', out.gidD)).map((u) => u.uri);
  step('list file added');

  // D's details: its mirror, the note of its leaving, what the engine measured
  await rowD.getByRole('button', { name: 'd.bin', exact: true }).click();
  await until('the notes of D', async () => /left out/.test(await page.locator('#notes').textContent()));
  out.detailsD = {
    mirrors: await page.locator('#mirrors').innerText(),
    notes: await page.locator('#notes').innerText(),
    measured: await page.locator('#measured').innerText(),
  };
  step('details of D');

  // a Metalink document dropped onto the page: its file added into the form's folder, and complete
  const meta4 = '<?xml version="1.0" encoding="UTF-8"?>\n<metalink xmlns="urn:ietf:params:xml:ns:metalink">'
    + `<file name="e.bin"><size>${lengthE}</size><hash type="sha-256">${sha256E}</hash><url>${urlE}</url></file></metalink>`;
  const dropped = await page.evaluateHandle((xml) => {
    const dt = new DataTransfer();
    dt.items.add(new File([xml], 'e.meta4', { type: 'application/metalink4+xml' }));
    return dt;
  }, meta4);
  await page.dispatchEvent('main', 'drop', { dataTransfer: dropped });
  await page.getByRole('status').getByText('Added 1 download from e.meta4').waitFor();
  const rowE = page.getByRole('listitem').filter({ hasText: 'e.bin' });
  await until('E complete', async () => (await rowE.count()) === 1 && (await rowE.locator('.state').textContent()) === 'complete');
  step('Metalink dropped');

  // pages: 60 paused entries more make 64, 50 a page; B, C, D and E, stopped, are last, on the second
  const adds = Array.from({ length: 60 }, (_, i) => ({
    methodName: 'aria2.addUri',
    params: ['token:' + secret, [`${urlB}?n=${i}`], { out: `p${i}.bin`, pause: 'true' }],
  }));
  const added = await (await fetch(new URL('jsonrpc', base), {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 'many', method: 'system.multicall', params: [adds] }),
  })).json();
  out.pausedAdded = added.result.filter((r) => Array.isArray(r)).length;
  await until('the first page of 64', async () => (await page.locator('#page-range').textContent()) === '1–50 of 64');
  out.firstPageRows = await page.locator('#queue > li').count();
  out.bOnFirstPage = await rowB.count();
  await page.getByRole('button', { name: 'Next page' }).click();
  await until('the second page', async () => (await page.locator('#page-range').textContent()) === '51–64 of 64');
  out.secondPageRows = await page.locator('#queue > li').count();
  out.bOnSecondPage = await rowB.count();
  out.nextDisabledOnLast = await page.getByRole('button', { name: 'Next page' }).isDisabled();
  step('paged');

  // a phone's width: nothing scrolls sideways, the details included
  await page.setViewportSize({ width: 390, height: 844 });
  out.narrow = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    bodyScrollWidth: document.body.scrollWidth,
  }));
  step('390 px');

  // a read-only key: the queue, without a control that would change it
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Secret').fill(readKey);
  await page.getByLabel('Secret').press('Enter');
  await page.getByRole('status').getByText(/read-only key/).waitFor();
  out.readOnly = {
    notice: await page.getByRole('status').textContent(),
    rows: await until('rows for the read-only key', async () => page.locator('#queue > li').count()),
    add: await page.getByRole('button', { name: 'Add', exact: true }).count(),
    pauseAll: await page.getByRole('button', { name: 'Pause all' }).count(),
    remove: await page.getByRole('button', { name: 'Remove', exact: true }).count(),
    limitEditable: await page.getByLabel('Speed limit').isEditable(),
    windowsEditable: await page.getByLabel('Run windows').isEditable(),
    listFile: await page.getByLabel('List or Metalink file').isVisible(),
  };
  step('read-only key');
  await context.close();
} finally {
  await browser.close();
}
out.elapsedMs = Date.now() - started;
process.stdout.write(JSON.stringify(out));
