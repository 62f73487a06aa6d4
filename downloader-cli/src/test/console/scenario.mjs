// Drives braid's web console in Debian's chromium (Playwright, no test runner): the steps of
// ConsoleBrowserTest, which asserts on the JSON printed at the end. Arguments: the console's URL,
// the secret, URL A, a mirror of A, URL B, the folder for the added downloads, a read-only API key.
import { chromium } from 'playwright-core';

const [base, secret, urlA, mirrorA, urlB, folder, readKey] = process.argv.slice(2);
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

  // remove A's row: gone from the page and from the daemon's list
  await rowA.getByRole('button', { name: 'Remove', exact: true }).click();
  await rowA.waitFor({ state: 'detached' });
  out.stoppedAfterRemove = (await rpc('aria2.tellStopped', 0, 10, ['gid'])).map((s) => s.gid);
  step('removed');

  // pages: 60 paused entries more make 61, 50 a page; B, stopped, is last, on the second
  const adds = Array.from({ length: 60 }, (_, i) => ({
    methodName: 'aria2.addUri',
    params: ['token:' + secret, [`${urlB}?n=${i}`], { out: `p${i}.bin`, pause: 'true' }],
  }));
  const added = await (await fetch(new URL('jsonrpc', base), {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 'many', method: 'system.multicall', params: [adds] }),
  })).json();
  out.pausedAdded = added.result.filter((r) => Array.isArray(r)).length;
  await until('the first page of 61', async () => (await page.locator('#page-range').textContent()) === '1–50 of 61');
  out.firstPageRows = await page.locator('#queue > li').count();
  out.bOnFirstPage = await rowB.count();
  await page.getByRole('button', { name: 'Next page' }).click();
  await until('the second page', async () => (await page.locator('#page-range').textContent()) === '51–61 of 61');
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
  };
  step('read-only key');
  await context.close();
} finally {
  await browser.close();
}
out.elapsedMs = Date.now() - started;
process.stdout.write(JSON.stringify(out));
