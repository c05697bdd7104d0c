// Measures the viewer in headless Debian chromium: page weight (raw and gzip), time
// from handing a file to the Viewer to its first drawn frame, and frame time while
// panning. `node scripts/bench-viewer.mjs` after scripts/build.sh; prints Markdown
// rows for docs/benchmarks.md. Numbers are from one machine: compare, don't quote.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bench = path.join(root, 'tests/data/bench');
const dist = path.resolve(root, process.env.MEMPLAN_DIST ?? 'dist');

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log('| file | raw | gzip |\n|---|---|---|');
let total = 0;
let totalGz = 0;
// What the main page loads: its first wasm module and its glue, index.html, every
// script and style sheet (the docs demo and embed.html are other pages; the whole
// crate, pkg/, loads later: scripts/page-weight.mjs records what the page fetches).
const pageFiles = ['pkg-lite/memplan_bg.wasm', 'pkg-lite/memplan.js', 'index.html',
  ...fs.readdirSync(dist).filter((f) => /\.(js|css)$/.test(f) && !/^(docs-demo|embed)\./.test(f)).sort()];
for (const f of pageFiles) {
  const b = fs.readFileSync(path.join(dist, f));
  const gz = zlib.gzipSync(b, { level: 9 }).length;
  total += b.length;
  totalGz += gz;
  console.log(`| ${f} | ${kib(b.length)} | ${kib(gz)} |`);
}
console.log(`| page total | ${kib(total)} | ${kib(totalGz)} |\n`);

const synthetic = execFileSync('node', [path.join(root, 'scripts/gen-synthetic.mjs'), '100000'], { maxBuffer: 1 << 26 });
const cases = [
  ['resnet18 memory_info.txt', 'memory_info.txt', fs.readFileSync(path.join(bench, 'aidge/resnet18-multi-None/memory_info.txt'))],
  ['efficientnet_b0 planes.json', 'planes.json', fs.readFileSync(path.join(bench, 'aidge/efficientnet_b0-single-wrap-None/planes.json'))],
  ['MiniMalloc F (no offsets, placed)', 'F.1048576.csv', fs.readFileSync(path.join(bench, 'minimalloc/F.1048576.csv'))],
  ['synthetic 100,000 planes CSV', 'synthetic.csv', synthetic],
];

/**
 * In-page measuring helper (installed with addInitScript): `__bench.frames(v, n, step)`
 * calls `step(i)`, renders and waits a frame, n times; returns the median and p95 render
 * time (the Viewer's own clock) and the median frame interval.
 */
function benchHelpers() {
  const q = (xs, k) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(k * xs.length))];
  window.__bench = {
    async frames(v, n, step) {
      const renders = [];
      const intervals = [];
      let last = performance.now();
      for (let i = 0; i < n; i++) {
        step(i);
        v.render();
        renders.push(v.last_render_ms());
        await new Promise((res) => requestAnimationFrame(res));
        const now = performance.now();
        intervals.push(now - last);
        last = now;
      }
      return { m: q(renders, 0.5), p: q(renders, 0.95), i: q(intervals, 0.5) };
    },
    /**
     * A Viewer of the whole crate (pkg/) on the page's canvas: `open` reads a file on the
     * main thread (the page's first module, pkg-lite/, opens files through its worker).
     */
    async viewer() {
      const m = await import(new URL('pkg/memplan.js', location.href).href);
      await m.default();
      const canvas = document.getElementById('chart');
      const v = new m.Viewer(canvas);
      const r = canvas.getBoundingClientRect();
      v.resize(r.width, r.height, window.devicePixelRatio || 1);
      return v;
    },
  };
}

const { server, url } = await serve(dist, 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.addInitScript(benchHelpers);
await page.goto(url);
await page.waitForFunction(() => window.__memplan && window.__memplan.ready);

console.log('| plan | planes | size | open → first frame | render (median / p95) while panning | frame interval while panning |');
console.log('|---|---|---|---|---|---|');
for (const [label, name, bytes] of cases) {
  const r = await page.evaluate(async ({ name, data }) => {
    const bin = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const v = await window.__bench.viewer();
    const t0 = performance.now();
    v.open(name, bin);
    v.render();
    await new Promise((res) => requestAnimationFrame(res));
    const first = performance.now() - t0;
    const planes = v.summary().planes;
    // Zoom in 4× on time, then pan one frame at a time.
    v.zoom_time(500, 4);
    const pan = await window.__bench.frames(v, 60, (i) => v.pan(i < 30 ? -8 : 8, 0));
    return { first, planes, med: pan.m, p95: pan.p, interval: pan.i };
  }, { name, data: Buffer.from(bytes).toString('base64') });
  console.log(`| ${label} | ${r.planes.toLocaleString('en')} | ${kib(bytes.length)} | ${r.first.toFixed(0)} ms | ${r.med.toFixed(1)} / ${r.p95.toFixed(1)} ms | ${r.interval.toFixed(1)} ms |`);
}
await browser.close();

// Scale (issue #5): synthetic plans of 100,000 and 1,000,000 planes (gen-synthetic.mjs,
// 10 % wrapped, 10 % striped for the JSON), handed to the page over a routed URL (no
// base64 through the debugger). For each: open → first frame, the fitted (zoomed-out)
// frame's render time while hovering, the render time while panning zoomed in 64×, a
// hover's hit-test, and the tab's memory (CDP Performance.getMetrics JSHeapUsedSize and
// the wasm memory's size).
{
  const gen = (args) => execFileSync('node', [path.join(root, 'scripts/gen-synthetic.mjs'), ...args], { maxBuffer: 1 << 30 });
  const scale = [
    ['synthetic 100,000 planes, JSON (wrap + stride)', 'syn100k.json', gen(['100000', '--json'])],
    ['synthetic 100,000 planes, CSV', 'syn100k.csv', gen(['100000'])],
    ['synthetic 1,000,000 planes, CSV', 'syn1m.csv', gen(['1000000'])],
  ];
  const browser2 = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--enable-precise-memory-info'],
  });
  console.log('\n| plan | planes | file | open → first frame | fitted, hovering: render (median / p95), frame interval | zoomed 4×, panning: render (median / p95), frame interval | zoomed 64×, panning: render (median / p95), frame interval | hover | JS heap | renderer RSS |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [label, name, bytes] of scale) {
    const p = await browser2.newPage({ viewport: { width: 1280, height: 800 } });
    await p.addInitScript(benchHelpers);
    await p.route(`${url}__bench/${name}`, (route) => route.fulfill({ body: bytes, contentType: 'application/octet-stream' }));
    await p.goto(url);
    await p.waitForFunction(() => window.__memplan && window.__memplan.ready);
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('Performance.enable');
    const r = await p.evaluate(async (file) => {
      const bin = new Uint8Array(await (await fetch(file)).arrayBuffer());
      const v = await window.__bench.viewer();
      const t0 = performance.now();
      v.open(file.split('/').pop(), bin);
      v.render();
      await new Promise((res) => requestAnimationFrame(res));
      const first = performance.now() - t0;
      const planes = v.summary().planes;
      const { frames } = window.__bench;
      const fitted = await frames(v, 20, (i) => v.hover(200 + i * 20, 300));
      // Panning zoomed in 4× (still an occupancy frame at 10^6 planes: tiles of a
      // new level, then reused) and 64× (exact rectangles), one frame at a time.
      const pan = (i) => v.pan(i < 20 ? -8 : 8, 0);
      v.zoom_time(500, 4);
      const z4 = await frames(v, 40, pan);
      v.zoom_time(500, 16);
      const z64 = await frames(v, 40, pan);
      const h0 = performance.now();
      for (let i = 0; i < 20; i++) v.hover(300 + i, 400);
      const hover = (performance.now() - h0) / 20;
      return { first, planes, fitted, z4, z64, hover };
    }, `${url}__bench/${name}`);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    const rss = await rendererRss(browser2);
    const mib = (n) => `${(n / 1048576).toFixed(0)} MiB`;
    console.log(`| ${label} | ${r.planes.toLocaleString('en')} | ${mib(bytes.length)} | ${r.first.toFixed(0)} ms | ${r.fitted.m.toFixed(1)} / ${r.fitted.p.toFixed(1)} ms, ${r.fitted.i.toFixed(1)} ms | ${r.z4.m.toFixed(1)} / ${r.z4.p.toFixed(1)} ms, ${r.z4.i.toFixed(1)} ms | ${r.z64.m.toFixed(1)} / ${r.z64.p.toFixed(1)} ms, ${r.z64.i.toFixed(1)} ms | ${r.hover.toFixed(2)} ms | ${mib(heap)} | ${rss == null ? 'n/a' : mib(rss)} |`);
    await p.close();
  }
  await browser2.close();
}
server.close();

/** Resident memory of the browser's renderer processes (the tab, wasm memory included). */
async function rendererRss(b) {
  const cdp = await b.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  let total = 0;
  for (const proc of processInfo.filter((x) => x.type === 'renderer')) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${proc.id}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch { /* gone */ }
  }
  await cdp.detach();
  return total;
}
