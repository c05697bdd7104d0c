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
const bench = path.resolve(root, '../shared/bench');
const dist = path.join(root, 'dist');

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log('| file | raw | gzip |\n|---|---|---|');
let total = 0;
let totalGz = 0;
for (const f of ['pkg/memplan_bg.wasm', 'pkg/memplan.js', 'main.js', 'index.html', 'style.css']) {
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

const { server, url } = await serve(dist, 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(url);
await page.waitForFunction(() => window.__memplan && window.__memplan.ready);

console.log('| plan | planes | size | open → first frame | render (median / p95) while panning | frame interval while panning |');
console.log('|---|---|---|---|---|---|');
for (const [label, name, bytes] of cases) {
  const r = await page.evaluate(async ({ name, data }) => {
    const bin = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const v = window.__memplan.viewer;
    const t0 = performance.now();
    v.open(name, bin);
    v.render();
    await new Promise((res) => requestAnimationFrame(res));
    const first = performance.now() - t0;
    const planes = v.summary().planes;
    // Zoom in 4× on time, then pan one frame at a time.
    v.zoom_time(500, 4);
    const renders = [];
    const intervals = [];
    let last = performance.now();
    for (let i = 0; i < 60; i++) {
      v.pan(i < 30 ? -8 : 8, 0);
      v.render();
      renders.push(v.last_render_ms());
      await new Promise((res) => requestAnimationFrame(res));
      const now = performance.now();
      intervals.push(now - last);
      last = now;
    }
    const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
    return { first, planes, med: q(renders, 0.5), p95: q(renders, 0.95), interval: q(intervals, 0.5) };
  }, { name, data: Buffer.from(bytes).toString('base64') });
  console.log(`| ${label} | ${r.planes.toLocaleString('en')} | ${kib(bytes.length)} | ${r.first.toFixed(0)} ms | ${r.med.toFixed(1)} / ${r.p95.toFixed(1)} ms | ${r.interval.toFixed(1)} ms |`);
}
await browser.close();
server.close();
