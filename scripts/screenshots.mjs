// Writes docs/screenshots/: the page as an Aidge user sees it, on the small ViT of
// tests/data/vit/ (exported plain and fused by the real aidge_core), at 1440×900 and
// 390×844, light and dark, single plan and compare (plain against fused); an XLA
// plan over many memories (tests/data/xla: a buffer assignment with its live ranges);
// and a TFLite model with its print_allocations() output (tests/data/tflm: the arena
// size to set, what is live at a clock, the table of its buffers). Needs a built dist/
// (scripts/build.sh) and Debian's chromium; with .venv's Pillow (aidge's venv has it)
// the PNGs are reduced to 128 colours, which keeps docs/ a few hundred KB.
// Usage: node scripts/screenshots.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from '../tests/e2e/harness.mjs';

const out = path.join(h.root, 'docs/screenshots');
fs.mkdirSync(out, { recursive: true });
const vit = (which) => fs.readFileSync(path.join(h.root, 'tests/data/vit', which, 'memory_info.txt'));
const tflm = (file) => fs.readFileSync(path.join(h.root, 'tests/data/tflm', file));
const xla = (which) => fs.readFileSync(path.join(h.root, 'tests/data/xla', `cnn.cpu_after_optimizations-${which}.txt`));

const env = await h.start();
try {
  for (const [name, viewport, theme, compare] of [
    ['light-1440x900', { width: 1440, height: 900 }, 'light', false],
    ['dark-1440x900', { width: 1440, height: 900 }, 'dark', false],
    ['compare-1440x900', { width: 1440, height: 900 }, 'light', true],
    ['compare-dark-1440x900', { width: 1440, height: 900 }, 'dark', true],
    ['phone-390x844', { width: 390, height: 844 }, 'light', false],
    ['phone-compare-dark-390x844', { width: 390, height: 844 }, 'dark', true],
    ['xla-1440x900', { width: 1440, height: 900 }, 'light', 'xla'],
    ['xla-phone-390x844', { width: 390, height: 844 }, 'light', 'xla'],
    ['tflm-1440x900', { width: 1440, height: 900 }, 'light', 'tflm'],
    ['tflm-phone-390x844', { width: 390, height: 844 }, 'light', 'tflm'],
  ]) {
    const page = await env.open('', viewport);
    await page.evaluate((t) => localStorage.setItem('memplan-theme', t), theme);
    await page.reload();
    await h.ready(page);
    if (compare === 'tflm') {
      await h.drop(page, [['dag6.tflite', tflm('dag6.tflite')], ['dag6.allocations.txt', tflm('dag6.allocations.txt')]]);
      await h.waitForFiles(page, 2);
      await page.waitForSelector('#arena-size');
      // What is live at clock 5, and the table of every buffer, open.
      await page.evaluate(() => window.__memplan.inspect(5));
      await page.click('#table-box summary');
      await h.frame(page);
      await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
      await page.close();
      console.log(`${name}.png`);
      continue;
    }
    if (compare === 'xla') {
      await h.drop(page, ['buffer-assignment', 'live-range'].map((w) => [`cnn.cpu_after_optimizations-${w}.txt`, xla(w)]));
      await h.waitForFiles(page, 2);
      await h.frame(page);
      await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: viewport.width < 720 });
      await page.close();
      console.log(`${name}.png`);
      continue;
    }
    await h.drop(page, [['memory_info.txt', vit('plain')]]);
    await h.waitForFiles(page, 2);
    await h.drop(page, [['memory_info.txt', vit('fused')]]);
    await h.waitForFiles(page, 3);
    if (compare) {
      await page.click('#compare-open');
      await page.waitForSelector('#compare:not([hidden])');
      await page.locator('#cmp-rows tr').first().click();
    } else {
      // Names by their key: on a phone the button is folded behind More….
      await page.focus('#stage');
      await page.keyboard.press('n');
      await page.keyboard.press('p');
    }
    await h.frame(page);
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: viewport.width < 720 });
    await page.close();
    console.log(`${name}.png`);
  }
} finally {
  await env.stop();
}

const python = path.join(h.root, '.venv/bin/python');
const quantize = `import sys
from PIL import Image
for f in sys.argv[1:]:
    Image.open(f).convert("RGB").quantize(128, method=Image.Quantize.MEDIANCUT).save(f, optimize=True)`;
try {
  const files = fs.readdirSync(out).filter((f) => f.endsWith('.png')).map((f) => path.join(out, f));
  execFileSync(python, ['-c', quantize, ...files], { stdio: 'inherit' });
} catch (e) {
  console.warn(`PNGs left in full colour (${e.message.split('\n')[0]})`);
}
