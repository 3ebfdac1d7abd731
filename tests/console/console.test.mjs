// The console in a real browser (Debian's chromium through playwright-core)
// against a live vouchd started by scripts/test_console.sh, which passes
// VOUCH_URL and VOUCH_ADMIN_KEY. Walks every page the way a person would, checks
// that hostile names and code stay text, runs axe-core on each page and writes a
// screenshot of each into VOUCH_CONSOLE_SHOTS (scripts/test_console.sh passes a
// temporary folder; point it at docs/console to refresh the README's pictures).
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const SHOTS = process.env.VOUCH_CONSOLE_SHOTS || mkdtempSync(join(tmpdir(), 'vouch-console-shots-'));
const URL_BASE = process.env.VOUCH_URL;
const ADMIN_KEY = process.env.VOUCH_ADMIN_KEY;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_CODE = '</script><script>alert(2)</script>';

assert.ok(URL_BASE && ADMIN_KEY, 'VOUCH_URL and VOUCH_ADMIN_KEY must be set (scripts/test_console.sh)');

let browser;
let context;
let page;
let receiver;
let receiverHits = 0;
const problems = []; // dialogs, console errors and page errors, all failures
let current = '';
const scratch = mkdtempSync(join(tmpdir(), 'vouch-console-'));

async function api(method, path, body, key = ADMIN_KEY) {
  const response = await fetch(URL_BASE + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

function watch(target) {
  target.on('dialog', (dialog) => {
    problems.push(`${current}: dialog: ${dialog.type()} ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  target.on('console', (message) => {
    // Chromium logs every non-2xx answer of fetch(); those the test provokes (a
    // wrong key, the scope probes' 403 and 415) are answers, not errors of the page.
    if (message.type() !== 'error') return;
    if (/^Failed to load resource: the server responded with a status of (401|403|415)\b/.test(message.text())) return;
    problems.push(`${current}: console error: ${message.text()}`);
  });
  target.on('pageerror', (error) => problems.push(`${current}: page error: ${error.message}`));
}

// axe-core on the page as it is; fails on any serious or critical violation.
async function checkAccessibility(name) {
  // Evaluated through the DevTools protocol, which the page's CSP does not
  // govern: the console itself stays under its policy.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe on ${name}`);
}

async function shoot(name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function open(hash) {
  await page.goto(`${URL_BASE}/console/${hash}`);
}

function smallPackage() {
  const folder = join(scratch, 'package');
  mkdirSync(join(folder, 'src'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', main: 'src/math.js' }));
  writeFileSync(join(folder, 'src', 'math.js'), [
    'exports.abs = (n) => (n < 0 ? -n : n);',
    'exports.clamp = (n, low, high) => Math.min(Math.max(n, low), high);',
    `exports.banner = () => ${JSON.stringify(HOSTILE_CODE)};`,
    '',
  ].join('\n'));
  const tarball = join(scratch, 'shop-1.0.0.tgz');
  execFileSync('tar', ['czf', tarball, '-C', scratch, 'package']);
  return readFileSync(tarball);
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  receiver = createServer((request, response) => {
    receiverHits += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end('receiver says no');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(20000);
  watch(page);
});

beforeEach((t) => {
  current = t.name;
});

after(async () => {
  await browser?.close();
  receiver?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test('the console is served with a strict policy and refuses framing', async () => {
  for (const path of ['/console/', '/console/app/main.js', '/console/vendor/htm-preact.js', '/console/nothing.js']) {
    const response = await fetch(URL_BASE + path);
    const policy = response.headers.get('content-security-policy') || '';
    assert.match(policy, /script-src 'self';/, path);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/, path);
    assert.match(policy, /frame-ancestors 'none'/, path);
    assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
    assert.equal(response.status, path === '/console/nothing.js' ? 404 : 200, path);
  }
  const redirect = await fetch(`${URL_BASE}/console`, { redirect: 'manual' });
  assert.equal(redirect.status, 308);
  assert.equal(redirect.headers.get('location'), '/console/');
});

let projectId;
let testId;
let runId;

test('sign in with one field and Enter, then the Projects page', async () => {
  await open('');
  await page.getByLabel('API key').fill('vk_wrong');
  await page.keyboard.press('Enter');
  const refused = page.getByRole('alert').filter({ hasText: '401' });
  await refused.waitFor();
  assert.match(await refused.textContent(), /Request id: req_\w+/, 'a problem shows its requestId');
  await checkAccessibility('sign-in');
  await shoot('signin');
  await page.getByLabel('API key').fill(ADMIN_KEY);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  assert.equal(new URL(page.url()).hash, '#/projects');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('vouch.apiKey')), ADMIN_KEY);
  assert.equal((await context.cookies()).length, 0, 'no cookie');
  assert.ok(!page.url().includes(ADMIN_KEY), 'the key is not in the URL');
  await page.getByText('No projects yet').waitFor();
});

test('create projects, one with a hostile name that stays text', async () => {
  const form = page.locator('form[aria-labelledby="create-project"]');
  await form.getByLabel('Name').fill('shop');
  await form.getByLabel('Coverage threshold (%)').fill('50');
  await form.getByRole('button', { name: 'Create project' }).click();
  const card = page.locator('li.project', { has: page.getByRole('link', { name: 'shop', exact: true }) });
  await card.waitFor();
  projectId = await card.getAttribute('data-project');
  await form.getByLabel('Name').fill(HOSTILE_NAME);
  await form.getByRole('button', { name: 'Create project' }).click();
  const hostile = page.getByRole('link', { name: HOSTILE_NAME, exact: true });
  await hostile.waitFor();
  assert.equal(await hostile.textContent(), HOSTILE_NAME);
  assert.equal(await page.locator('main img').count(), 0, 'no element made from the name');
});

test('import a package by dropping its tarball on the project', async () => {
  const bytes = smallPackage().toString('base64');
  const card = page.locator(`li.project[data-project="${projectId}"]`);
  const transfer = await page.evaluateHandle((base64) => {
    const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], 'shop-1.0.0.tgz', { type: 'application/gzip' }));
    return dt;
  }, bytes);
  await card.dispatchEvent('dragover', { dataTransfer: transfer });
  await card.dispatchEvent('drop', { dataTransfer: transfer });
  await card.getByText(/Imported snapshot snp_[0-9a-f]+: 2 files, \d+ bytes/).waitFor();
  await checkAccessibility('projects');
  await shoot('projects');
});

test('generate from the snapshot, then see the test with highlighted files', async () => {
  await page.locator(`li.project[data-project="${projectId}"]`).getByRole('link', { name: 'shop' }).click();
  await page.getByRole('heading', { level: 1, name: 'shop' }).waitFor();
  const snapshot = page.locator('li[data-snapshot]');
  await snapshot.waitFor();
  const accepted = page.waitForResponse((response) => response.url().endsWith('/v1/tests/generate'));
  await snapshot.getByRole('button', { name: 'Generate tests from this snapshot' }).click();
  assert.equal((await accepted).status(), 202, 'generation is asked for asynchronously (Prefer: respond-async)');
  await snapshot.locator('progress').waitFor();
  await shoot('generating');
  const generated = snapshot.getByRole('link', { name: /^tst_/ });
  await generated.waitFor({ timeout: 120000 });
  testId = (await generated.textContent()).trim();
  await page.locator('table').getByRole('link', { name: testId }).waitFor();
  await checkAccessibility('project');
  await shoot('project');

  await generated.click();
  await page.getByRole('heading', { level: 1, name: `Generated test ${testId}` }).waitFor();
  await page.locator('dl.figures').waitFor();
  const testFile = page.getByRole('button', { name: /__tests__\/math\.test\.js$/ });
  await testFile.click();
  const code = page.locator('pre.code');
  await code.locator('span.token.keyword').first().waitFor();
  const text = await code.textContent();
  assert.ok(text.includes(HOSTILE_CODE), 'the generated test holds the hostile string, shown as text');
  assert.equal(await page.locator('main script').count(), 0, 'no script element from the code');
  await checkAccessibility('generated test');
  await shoot('test');
});

test('run the tests and follow the run to its coverage figures', async () => {
  await page.getByRole('button', { name: 'Run these tests' }).click();
  await page.getByRole('heading', { level: 1, name: /^Run run_/ }).waitFor();
  runId = new URL(page.url()).hash.split('/')[2];
  await page.locator('[data-outcome]').waitFor({ timeout: 120000 });
  assert.equal(await page.locator('[data-outcome]').textContent(), 'success');
  const figures = page.locator('dl.figures .figure dd');
  assert.equal(await figures.count(), 4);
  for (const figure of await figures.allTextContents()) assert.match(figure, /^\d+\.\d\s%/);
  assert.ok(Number(await page.locator('[data-count="passed"]').textContent()) > 0);
  await page.getByRole('button', { name: 'Download lcov.info' }).waitFor();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download lcov.info' }).click();
  assert.equal((await download).suggestedFilename(), `${runId}.lcov.info`);
  assert.match(readFileSync(await (await download).path(), 'utf8'), /^SF:.*math\.js$/m);
  const junit = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JUnit XML' }).click();
  assert.equal((await junit).suggestedFilename(), `${runId}.junit.xml`);
  assert.match(readFileSync(await (await junit).path(), 'utf8'), /<testsuite\b/);
  await checkAccessibility('run');
  await shoot('run');
});

test('open the HTML coverage report in its sandboxed frame', async () => {
  await page.getByRole('link', { name: 'HTML coverage report' }).click();
  await page.getByRole('heading', { level: 1, name: 'Coverage report: index.html' }).waitFor();
  const report = page.frameLocator('iframe.report');
  await report.getByText('All files').first().waitFor();
  const sandbox = await page.locator('iframe.report').getAttribute('sandbox');
  assert.ok(!sandbox.includes('allow-scripts'), 'the report runs no script');
  await checkAccessibility('report');
  await shoot('report');
  // A file's page, through the report's own link (a console link in the top window).
  await report.getByRole('link', { name: 'math.js' }).click();
  await page.getByRole('heading', { level: 1, name: /^Coverage report: .*math\.js\.html$/ }).waitFor();
  await page.frameLocator('iframe.report').getByText('exports.abs').first().waitFor();
});

test('create a webhook, see its failed delivery to a receiver answering 500, redeliver', async () => {
  await open('#/webhooks');
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  await page.getByText('No webhook yet').waitFor();
  const form = page.locator('form[aria-labelledby="create-webhook"]');
  await form.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${receiver.address().port}/hook`);
  await form.getByLabel('Description').fill('console test receiver');
  await form.getByRole('button', { name: 'Create webhook' }).click();
  const secret = page.locator('.secret-value');
  await secret.waitFor();
  assert.match(await secret.textContent(), /^whsec_/);
  await shoot('webhooks');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.getByRole('link', { name: /127\.0\.0\.1/ }).click();
  await page.getByRole('heading', { level: 1, name: /^Webhook whk_/ }).waitFor();

  // An event for it: a project created through the API.
  await api('POST', '/v1/projects', { name: 'delivery trigger' });
  const failed = page.locator('tr[data-delivery]', { has: page.locator('td[data-status="500"]') });
  for (let i = 0; i < 40 && (await failed.count()) === 0; i += 1) {
    await page.getByRole('button', { name: 'Refresh deliveries' }).click();
    await page.waitForTimeout(500);
  }
  assert.ok((await failed.count()) > 0, 'a delivery answered 500 is listed');
  assert.ok(receiverHits > 0);
  const before = await page.locator('tr[data-delivery]').count();
  await failed.first().getByRole('button', { name: 'Redeliver' }).click();
  await page.getByText(/Redelivery of evt_\S+ queued/).waitFor();
  const manual = page.locator('tr[data-delivery]', { hasText: '(manual)' });
  for (let i = 0; i < 40 && (await manual.count()) === 0; i += 1) {
    await page.getByRole('button', { name: 'Refresh deliveries' }).click();
    await page.waitForTimeout(500);
  }
  assert.ok((await manual.count()) > 0, 'the redelivery is listed');
  assert.ok((await page.locator('tr[data-delivery]').count()) > before);

  const rotate = page.getByRole('button', { name: 'Rotate secret' });
  await rotate.click();
  await page.locator('.secret-value').waitFor();
  await checkAccessibility('webhook');
  await shoot('webhook');
  await page.getByRole('button', { name: 'I have copied it' }).click();
});

test('filter the audit trail by type and project, and read an event', async () => {
  await open('#/events');
  await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
  await page.locator('li[data-event-type]').first().waitFor();
  await page.getByLabel('Type').selectOption('project.imported');
  await page.getByLabel('Project id').fill(projectId);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/type=project.imported/);
  // The list keeps the previous page's rows, marked busy, until the filtered page arrives.
  await page.locator('ol.events[aria-busy="false"]').waitFor();
  const rows = page.locator('li[data-event-type]');
  await rows.first().waitFor();
  for (const type of await rows.evaluateAll((items) => items.map((item) => item.dataset.eventType))) {
    assert.equal(type, 'project.imported');
  }
  await rows.first().locator('summary').click();
  const json = JSON.parse(await rows.first().locator('pre.json').textContent());
  assert.equal(json.data.projectId, projectId);
  await checkAccessibility('events');
  await shoot('events');

  await page.getByLabel('Type').selectOption('project.*');
  await page.getByLabel('Project id').fill('');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/type=project\.\*/);
  await page.locator('ol.events[aria-busy="false"]').waitFor();
  await page.locator('li[data-event-type="project.created"]').first().waitFor();
  const types = await page.locator('li[data-event-type]').evaluateAll((items) => items.map((item) => item.dataset.eventType));
  assert.ok(types.every((type) => type.startsWith('project.')), types.join(','));
});

test('events page by page through the link', async () => {
  let all = await api('GET', '/v1/events?limit=100');
  for (let i = 0; all.events.length <= 25 && i < 30; i += 1) {
    await api('PUT', `/v1/projects/${projectId}`, { config: { coverage: { threshold: 50 + (i % 10) } } });
    all = await api('GET', '/v1/events?limit=100');
  }
  assert.ok(all.events.length > 25, 'enough events for two pages');
  await open('#/events');
  await page.locator('li[data-event-type]').first().waitFor();
  assert.equal(await page.locator('li[data-event-type]').count(), 25);
  await page.getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL(/after=evt_/);
  await page.locator('ol.events[aria-busy="false"]').waitFor();
  await page.getByRole('link', { name: 'First page' }).waitFor();
  const firstOnPageTwo = await page.locator('li[data-event-type] summary code').nth(1).textContent();
  assert.equal(firstOnPageTwo, all.events[25].id);
});

test('a deep link opens its page after sign-in in a new tab', async () => {
  const tab = await context.newPage();
  watch(tab);
  await tab.goto(`${URL_BASE}/console/#/runs/${runId}`);
  await tab.getByLabel('API key').fill(ADMIN_KEY);
  await tab.keyboard.press('Enter');
  await tab.getByRole('heading', { level: 1, name: `Run ${runId}` }).waitFor();
  await tab.close();
});

test('the pages work from the keyboard: navigation, skip link, focus on each page title', async () => {
  const focusedText = () => page.evaluate(() => document.activeElement.textContent.trim());
  const backTo = async (text) => {
    for (let i = 0; i < 10 && (await focusedText()) !== text; i += 1) await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedText(), text);
  };
  await open('#/projects');
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  const focusedTag = () => page.evaluate(() => document.activeElement.tagName);
  await page.waitForFunction(() => document.activeElement.tagName === 'H1', null, { timeout: 2000 }).catch(() => {});
  assert.equal(await focusedTag(), 'H1', 'a new page focuses its title');
  await backTo('Events');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
  assert.equal(await focusedText(), 'Events', 'the Events page focuses its title');
  await backTo('Skip to content');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
});

test('a read-only key sees read-only pages with the writing controls disabled', async () => {
  const key = await api('POST', '/v1/keys', {
    account: 'admin', plan: 'enterprise', scopes: ['projects:read', 'tests:read', 'webhooks:read', 'events:read'],
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key').fill(key.key);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  await page.getByText('This key is read-only here').waitFor();
  assert.ok(await page.getByRole('button', { name: 'Create project' }).isDisabled());
  assert.ok(await page.getByRole('button', { name: 'Delete project' }).first().isDisabled());
  await checkAccessibility('projects, read-only');
  await shoot('readonly');
  await open(`#/tests/${testId}`);
  assert.ok(await page.getByRole('button', { name: 'Run these tests' }).isDisabled());
  await open('#/webhooks');
  assert.ok(await page.getByRole('button', { name: 'Create webhook' }).isDisabled());
});

test('a phone-width layout has no sideways scrolling', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const hash of ['#/projects', `#/tests/${testId}`, `#/runs/${runId}`, '#/events']) {
    await open(hash);
    await page.locator('h1').waitFor();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${hash} overflows by ${overflow}px`);
  }
  await open(`#/runs/${runId}`);
  await page.locator('[data-outcome]').waitFor();
  await shoot('phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('no dialog, console error or page error happened', () => {
  assert.deepEqual(problems, []);
});
