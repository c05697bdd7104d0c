// Measures opening through the page's Web Worker in headless Debian chromium: for
// synthetic dumps of n planes (scripts/gen-synthetic.mjs, offsets given) and a buffer
// list re-planned with `best`, the time from handing the file to the page to its
// first drawn frame, split into the worker (read, parse, plan, encode) and the main
// thread's hand-off (decode the wire bytes + chart layout), the wire size, and the
// longest main-thread task meanwhile. `node scripts/bench-planning.mjs [--dense] [n...]`
// after scripts/build.sh (MEMPLAN_DIST honoured); prints Markdown rows (its runs so far:
// docs/history/benchmarks.md). `--dense`: dense traces without offsets instead
// (`gen-synthetic.mjs n --dense`, ~2,500 buffers live at any step), which the worker
// places on open (`strategies::place_default`), and no JSON or `best` rows.
// `--onnx MODEL.onnx[.gz]...`: those models only, each dropped as the page converts
// one (its lazily loaded ONNX module, symbolic dims at their defaults) then planned as
// Aidge 0.10.1 plans it; the time runs from the model's bytes to the first frame.
// Numbers are from one machine: compare, don't quote.
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(root, process.env.MEMPLAN_DIST ?? 'dist');
const argv = process.argv.slice(2);
const dense = argv.includes('--dense');
const onnx = argv.includes('--onnx');
const sizes = argv.filter((a) => a !== '--dense' && a !== '--onnx').map(onnx ? String : Number);
const tmp = fs.mkdtempSync(path.join(dist, 'bench-'));
const cases = [];
for (const file of onnx ? sizes : []) {
  const name = path.basename(file).replace(/\.gz$/, '');
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(path.join(tmp, name), file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes);
  cases.push([`${name}, converted then as loaded`, name, 'onnx']);
}
for (const n of onnx ? [] : sizes.length ? sizes : [100000, 1000000]) {
  const name = `synthetic-${n}.csv`;
  fs.writeFileSync(path.join(tmp, name),
    execFileSync('node', [path.join(root, 'scripts/gen-synthetic.mjs'), String(n), ...(dense ? ['--dense'] : [])], { maxBuffer: 1 << 30 }));
  cases.push([dense ? `dense ${n.toLocaleString('en-US')} buffers CSV without offsets, placed on open`
    : `synthetic ${n.toLocaleString('en-US')} planes CSV, as loaded`, name, 'aidge']);
  if (n <= 100000 && !dense) {
    const json = `synthetic-${n}.json`;
    fs.writeFileSync(path.join(tmp, json),
      execFileSync('node', [path.join(root, 'scripts/gen-synthetic.mjs'), String(n), '--json'], { maxBuffer: 1 << 30 }));
    cases.push([`synthetic ${n.toLocaleString('en-US')} planes JSON (wrap + stride), as loaded`, json, 'aidge']);
  }
}
if (!dense && !onnx) {
  fs.copyFileSync(path.join(root, 'tests/data/bench/minimalloc/C.1048576.csv'), path.join(tmp, 'C.1048576.csv'));
  cases.push(['MiniMalloc C (203 buffers), best', 'C.1048576.csv', 'best']);
}

const { server, url } = await serve(dist, 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  console.log('| file | bytes | drop → first frame | worker (read, parse, plan, encode) | hand-off on the main thread (decode + layout) | wire bytes | longest main-thread task |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [label, name, strategy] of cases) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.waitForFunction(() => window.__memplan && window.__memplan.ready);
    const r = await page.evaluate(async ({ href, name, strategy }) => {
      const source = await (await fetch(href)).blob();
      const longest = { ms: 0 };
      const obs = new PerformanceObserver((l) => {
        for (const e of l.getEntries()) longest.ms = Math.max(longest.ms, e.duration);
      });
      obs.observe({ type: 'longtask' });
      const m = window.__memplan;
      document.getElementById('budget').value = '10000';
      const t0 = performance.now();
      if (strategy === 'onnx') {
        // What the page does with a dropped model (main.js openFiles), less the form.
        const { convert } = await import(new URL('onnx.js', location.href).href);
        const json = await convert(name, new Uint8Array(await source.arrayBuffer()));
        await m.planning.open([{ name, source: new Blob([json], { type: 'application/json' }) }]);
      } else {
        await m.planning.open([{ name, source }]);
      }
      if (strategy !== 'aidge' && strategy !== 'onnx') {
        document.getElementById('strategy').value = strategy;
        await m.planning.replan();
      }
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      const total = performance.now() - t0;
      obs.disconnect();
      return { total, bytes: source.size, ...m.planning.last, longest: longest.ms, planes: m.summary().planes };
    }, { href: `${path.basename(tmp)}/${name}`, name, strategy });
    const ms = (v) => `${Math.round(v)} ms`;
    const what = strategy === 'onnx' ? `${label} (${r.planes} planes)` : label;
    console.log(`| ${what} | ${r.bytes.toLocaleString('en-US')} | ${ms(r.total)} | ${ms(r.worker_ms)} | ${ms(r.handoff_ms)} | ${r.wire_bytes.toLocaleString('en-US')} | ${ms(r.longest)} |`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
