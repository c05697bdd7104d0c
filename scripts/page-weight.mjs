// The page's weight: every file the page loads until its first plan is drawn (recorded in
// Debian's chromium, as the e2e tests run it), raw and gzipped (level 9, what a static host
// serves), as a Markdown table for docs/benchmarks.md.
//
//   node scripts/page-weight.mjs [DIST]     (default dist/, built by scripts/build.sh)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const dist = path.resolve(process.argv[2] ?? 'dist');
const { server, url } = await serve(dist, 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const loaded = new Set();
page.on('request', (r) => { if (r.url().startsWith(url)) loaded.add(new URL(r.url()).pathname); });
await page.goto(url);
await page.waitForFunction(() => window.__memplan && window.__memplan.ready, null, { timeout: 60000 });
await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
await browser.close();
server.close();

const kib = (n) => (n / 1024).toFixed(1);
const rows = [...loaded].map((p) => {
  const file = path.join(dist, p === '/' ? 'index.html' : decodeURIComponent(p));
  const bytes = fs.readFileSync(file);
  return { name: p === '/' ? '/index.html' : p, raw: bytes.length, gz: zlib.gzipSync(bytes, { level: 9 }).length };
}).sort((a, b) => b.gz - a.gz);
console.log('| file | raw KiB | gzip KiB |\n|---|---:|---:|');
for (const r of rows) console.log(`| \`${r.name}\` | ${kib(r.raw)} | ${kib(r.gz)} |`);
const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
console.log(`| **all ${rows.length} files** | **${kib(sum('raw'))}** | **${kib(sum('gz'))}** |`);
