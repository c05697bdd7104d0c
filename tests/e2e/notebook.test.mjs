// End-to-end test of memplan.show() (issue #34): a real JupyterLab (the .venv of
// scripts/setup.sh python: jupyterlab, anywidget, ipykernel, nbconvert) started on
// localhost in a temporary folder and driven in the e2e harness's chromium. A notebook
// cell shows a committed fixture: the widget draws the plan with Aidge's peak (read from
// the widget's summary line), the names toggle, hover, a re-plan and the compare view
// work, and what the widget shows reaches Python (`w.summary`, `w.names`). Then the
// notebook, saved by JupyterLab, is exported by `jupyter nbconvert --to html`, and the
// HTML, opened offline, shows the plan (the widget's SVG fallback, with its peak).
// A quick run (< 90 s): one notebook of three cells, one export (not `--execute`, whose
// kernel start would double the export's time for the same fallback).
// Nothing the notebook page loads comes from anywhere but the local server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import * as h from './harness.mjs';

const { root, results } = h;
const bin = path.join(root, '.venv/bin');
const FIXTURE = path.join(root, 'tests/data/aidge/resnet18-multi-None.json');
const OTHER = path.join(root, 'tests/data/bench/aidge/resnet18-multi-None/memory_info.txt');
/** Aidge's own peak for the fixture (golden.log, from the real aidge_core). */
const PEAK = h.golden('resnet18-multi-None');

let dir;
let lab;
let browser;
let base;
const token = `memplan-${process.pid}-${Date.now()}`;
const timings = {};

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function cell(source) {
  return { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source };
}

before(async () => {
  assert.ok(fs.existsSync(path.join(bin, 'jupyter-lab')), 'JupyterLab is not in .venv: run scripts/setup.sh python');
  assert.ok(fs.existsSync(path.join(root, 'python/memplan/static/widget.mjs')),
    'the notebook widget is not built: run npm run build (or scripts/build.sh widget)');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memplan-notebook-'));
  const nb = {
    cells: [
      cell(`import memplan\nw = memplan.show(${JSON.stringify(FIXTURE)}, height=380)\nw`),
      cell(`print("names", w.names, "peak", w.summary.get("peak_bytes"), "strategy", w.strategy)`),
      cell(`memplan.show(${JSON.stringify(FIXTURE)}, compare=${JSON.stringify(OTHER)}, height=420)`),
    ],
    metadata: {
      kernelspec: { display_name: 'Python 3 (ipykernel)', language: 'python', name: 'python3' },
      language_info: { name: 'python' },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
  fs.writeFileSync(path.join(dir, 'plan.ipynb'), JSON.stringify(nb, null, 1));
  // A JupyterLab of its own: settings, workspaces and runtime files in the folder, no
  // news or update checks (they would be the only requests to the outside).
  const settings = path.join(dir, '.settings/@jupyterlab/apputils-extension');
  fs.mkdirSync(settings, { recursive: true });
  fs.writeFileSync(path.join(settings, 'notification.jupyterlab-settings'),
    JSON.stringify({ fetchNews: 'false', checkForUpdates: false }));
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    JUPYTER_CONFIG_DIR: path.join(dir, '.jupyter'),
    JUPYTER_RUNTIME_DIR: path.join(dir, '.runtime'),
    JUPYTERLAB_SETTINGS_DIR: path.join(dir, '.settings'),
    JUPYTERLAB_WORKSPACES_DIR: path.join(dir, '.workspaces'),
    IPYTHONDIR: path.join(dir, '.ipython'),
  };
  const port = await freePort();
  const started = Date.now();
  lab = spawn(path.join(bin, 'jupyter-lab'), ['--no-browser', `--ServerApp.token=${token}`,
    `--ServerApp.port=${port}`, '--ServerApp.port_retries=0', '--ServerApp.ip=127.0.0.1',
    `--ServerApp.root_dir=${dir}`, '--ServerApp.allow_root=True', '--LabApp.expose_app_in_browser=True',
    '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'],
  { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  lab.stdout.on('data', (d) => { log += d; });
  lab.stderr.on('data', (d) => { log += d; });
  base = `http://127.0.0.1:${port}`;
  // Up when its API answers.
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${base}/api/status?token=${token}`);
      if (r.ok) break;
    } catch { /* not yet */ }
    assert.ok(lab.exitCode == null && i < 600, `JupyterLab did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  timings.labStart = Date.now() - started;
  lab.log = () => log;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
  if (lab && lab.exitCode == null) {
    lab.kill('SIGTERM');
    await new Promise((r) => { lab.once('exit', r); setTimeout(r, 5000); });
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  console.log(`notebook timings (ms): ${JSON.stringify(timings)}`);
});

/** Runs cell `i` of the open notebook (JupyterLab's own command). */
async function runCell(page, i) {
  await page.evaluate(async (k) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    panel.content.activeCellIndex = k;
    await app.commands.execute('notebook:run-cell');
  }, i);
}

/** The text of cell `i`'s outputs. */
function outputText(page, i) {
  return page.evaluate((k) => {
    const cells = document.querySelectorAll('.jp-Notebook .jp-Cell');
    return cells[k]?.querySelector('.jp-OutputArea')?.textContent ?? '';
  }, i);
}

test('memplan.show in JupyterLab: the plan, its peak, names, hover, re-plan, compare; then its HTML export', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const outside = [];
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:')) outside.push(u);
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  let t = Date.now();
  await page.goto(`${base}/lab/tree/plan.ipynb?token=${token}&reset`);
  await page.waitForFunction(() => {
    const w = window.jupyterapp?.shell.currentWidget;
    return w?.sessionContext?.session?.kernel?.status === 'idle' && w.content?.widgets?.length === 3;
  }, null, { timeout: 90000 });
  timings.notebookReady = Date.now() - t;

  // The cell that shows the fixture: the widget draws it with Aidge's peak.
  t = Date.now();
  await runCell(page, 0);
  const widget = page.locator('.jp-Cell').nth(0).locator('.mpw');
  await page.waitForFunction(() => document.querySelector('.mpw .mpw-summary')?.dataset.peakBytes, null, { timeout: 60000 });
  timings.widgetShown = Date.now() - t;
  const summary = widget.locator('.mpw-summary');
  assert.equal(await summary.getAttribute('data-peak-bytes'), PEAK);
  const text = await summary.textContent();
  assert.match(text, /resnet18-multi-None\.json: peak /);
  const peakText = await page.evaluate(() => document.querySelector('.mpw').memplan.view.viewer.summary().peak);
  assert.ok(text.includes(peakText), `${text} shows ${peakText}`);
  const drawn = () => page.evaluate(() => {
    const f = document.querySelector('.mpw').memplan.view.viewer.frame();
    return { planes: f.drawn.length, labels: f.labels.length, peak: f.peak_y[0] };
  });
  let frame = await drawn();
  assert.ok(frame.planes > 30, `${frame.planes} planes drawn`);
  assert.equal(frame.labels, 0, 'names are off');
  assert.ok(frame.peak != null, 'the peak line is drawn');
  // The canvas has the plan's pixels (not blank): some of its pixels are not the background.
  const painted = await page.evaluate(() => {
    const c = document.querySelector('.mpw').memplan.view.shadowRoot.querySelector('canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4 * 7) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
    return n;
  });
  assert.ok(painted > 1000, `${painted} painted samples`);
  // Its width is the cell's, its height the one asked for.
  const box = await widget.boundingBox();
  const cellBox = await page.locator('.jp-Cell').nth(0).locator('.jp-OutputArea-output').boundingBox();
  assert.ok(Math.abs(box.width - cellBox.width) <= 2, `widget ${box.width} px in an output ${cellBox.width} px wide`);
  assert.ok(Math.abs(box.height - 380) <= 2, `height ${box.height}`);

  // Names: the button shows them on the planes, and Python sees it.
  await widget.locator('button', { hasText: 'Names' }).click();
  await page.waitForFunction(() => document.querySelector('.mpw').memplan.view.viewer.frame().labels.length > 0);
  assert.equal(await widget.locator('button', { hasText: 'Names' }).getAttribute('aria-pressed'), 'true');
  frame = await drawn();
  assert.ok(frame.labels > 5, `${frame.labels} names drawn`);

  // Hover: the plane under the pointer is named in the tip.
  const big = await page.evaluate(() => {
    const f = document.querySelector('.mpw').memplan.view.viewer.frame();
    return f.drawn.reduce((a, b) => (b.rect.w * b.rect.h > a.rect.w * a.rect.h ? b : a)).rect;
  });
  const viewBox = await widget.locator('.mpw-view').boundingBox();
  await page.mouse.move(viewBox.x + big.x + big.w / 2, viewBox.y + big.y + big.h / 2);
  await page.waitForFunction(() => !document.querySelector('.mpw').memplan.view.shadowRoot.querySelector('.tip').hidden);
  const tip = await page.evaluate(() => document.querySelector('.mpw').memplan.view.shadowRoot.querySelector('.tip').textContent);
  assert.match(tip, / at .*clocks \d+–\d+/);
  await page.screenshot({ path: path.join(results, 'notebook-jupyterlab.png') });

  await runCell(page, 1);
  await page.waitForFunction(() => /names True/.test(document.querySelectorAll('.jp-Cell')[1]?.querySelector('.jp-OutputArea')?.textContent ?? ''), null, { timeout: 30000 });
  assert.match(await outputText(page, 1), new RegExp(`names True peak ${PEAK} strategy as-loaded`));

  // Re-plan: the strategy menu re-places the plan (best never loses to Aidge's).
  t = Date.now();
  await widget.locator('select').selectOption('best');
  await page.waitForFunction(() => /· best: peak/.test(document.querySelector('.mpw .mpw-summary').textContent));
  timings.replanBest = Date.now() - t;
  const best = await summary.getAttribute('data-peak-bytes');
  assert.ok(BigInt(best) <= BigInt(PEAK), `best ${best} <= Aidge ${PEAK}`);
  // Compare: the plan as loaded (A) against its re-plan (B), on one scale.
  await widget.locator('button', { hasText: 'Compare' }).click();
  await page.waitForFunction(() => /B − A/.test(document.querySelector('.mpw .mpw-summary').textContent));
  const cmp = await page.evaluate(() => {
    const m = document.querySelector('.mpw').memplan;
    const s = m.summary().compare;
    return { s, a: m.compare().frame(0).drawn.length, b: m.compare().frame(1).drawn.length };
  });
  assert.equal(cmp.s.peak_delta_bytes, String(BigInt(best) - BigInt(PEAK)));
  assert.ok(cmp.a > 30 && cmp.b > 30, `compare drew ${cmp.a} and ${cmp.b} planes`);
  await runCell(page, 1);
  await page.waitForFunction((p) => new RegExp(`peak ${p} strategy best`).test(document.querySelectorAll('.jp-Cell')[1]?.querySelector('.jp-OutputArea')?.textContent ?? ''), best, { timeout: 30000 });
  // Back to the plan as loaded, names on, for the export below.
  await widget.locator('button', { hasText: 'Compare' }).click();
  await widget.locator('select').selectOption('as-loaded');
  await page.waitForFunction((p) => document.querySelector('.mpw .mpw-summary').dataset.peakBytes === p, PEAK);

  // compare=: two files, shown together first.
  await runCell(page, 2);
  const second = page.locator('.jp-Cell').nth(2).locator('.mpw');
  await page.waitForFunction(() => /B − A/.test(document.querySelectorAll('.mpw')[1]?.querySelector('.mpw-summary')?.textContent ?? ''), null, { timeout: 60000 });
  const pair = await page.evaluate(() => document.querySelectorAll('.mpw')[1].memplan.summary().compare);
  assert.equal(pair.a, 'resnet18-multi-None.json');
  assert.equal(pair.b, 'memory_info.txt');
  assert.equal(pair.peak_delta_bytes, '0', 'the JSON export and Aidge\'s log of ResNet-18 are one plan');
  await second.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(results, 'notebook-jupyterlab-compare.png') });

  assert.deepEqual(outside, [], 'the notebook page asked nothing of any other server');
  assert.deepEqual(errors, []);

  // Saved by JupyterLab (no widget state: JupyterLab's default), then exported to HTML.
  await page.evaluate(() => window.jupyterapp.commands.execute('docmanager:save'));
  await page.waitForFunction(() => !window.jupyterapp.shell.currentWidget.context.model.dirty);
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'plan.ipynb'), 'utf8'));
  const bundle = saved.cells[0].outputs.find((o) => o.output_type === 'execute_result')?.data ?? {};
  assert.ok(bundle['application/vnd.jupyter.widget-view+json'], 'the cell holds the widget');
  assert.match(bundle['text/html'].join?.('') ?? bundle['text/html'], /<svg/, 'and its static form');
  await page.close();

  t = Date.now();
  execFileSync(path.join(bin, 'jupyter-nbconvert'), ['--to', 'html', path.join(dir, 'plan.ipynb')],
    { cwd: dir, env: { ...process.env, JUPYTER_CONFIG_DIR: path.join(dir, '.jupyter') }, stdio: 'pipe' });
  timings.nbconvert = Date.now() - t;
  const html = path.join(dir, 'plan.html');
  assert.ok(fs.existsSync(html));
  fs.copyFileSync(html, path.join(results, 'notebook-export.html'));
  // Three charts in one page: each has its own clip paths and patterns.
  const ids = [...fs.readFileSync(html, 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'ids are unique in the exported page');

  // The exported HTML, offline: the plan is drawn, with its peak.
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
  const off = await context.newPage();
  await off.goto(`file://${html}`);
  const statics = off.locator('.memplan-static');
  assert.equal(await statics.count(), 2, 'both outputs of memplan.show');
  const first = statics.nth(0);
  const caption = await first.locator('p').first().textContent();
  const peak = Number(PEAK).toLocaleString('en');
  assert.match(caption, new RegExp(`resnet18-multi-None\\.json: peak ${peak} B`));
  const svg = first.locator('svg').first();
  const svgBox = await svg.boundingBox();
  assert.ok(svgBox && svgBox.width > 400 && svgBox.height > 150, `SVG drawn ${JSON.stringify(svgBox)}`);
  assert.ok(await svg.locator('rect').count() > 30, 'its planes are drawn');
  assert.match(await svg.textContent(), /Peak usage =/);
  await first.scrollIntoViewIfNeeded();
  await off.screenshot({ path: path.join(results, 'notebook-export-offline.png') });
  await context.close();
});
