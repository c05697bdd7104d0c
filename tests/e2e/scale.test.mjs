// A big dump in the page (issue #5): 250,000 planes from scripts/gen-synthetic.mjs are
// dropped, planned in the worker and shown zoomed out as occupancy (no blank canvas, no
// per-plane rectangles); hover names the plane under the real mouse; zooming in with the
// wheel brings back exact rectangles that hover and click as on a small plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as h from './harness.mjs';

const N = 250000;

/** Canvas pixel at CSS point (x, y) of the chart, as [r, g, b]. */
function pixel(page, x, y) {
  return page.evaluate(([x, y]) => {
    const c = document.getElementById('chart');
    const d = window.devicePixelRatio;
    return [...c.getContext('2d').getImageData(Math.round(x * d), Math.round(y * d), 1, 1).data].slice(0, 3);
  }, [x, y]);
}

test(`${N.toLocaleString('en')} planes: occupancy when zoomed out, exact rectangles when zoomed in, hover and click in both`, async () => {
  const env = await h.start();
  try {
    await bigPlan(await env.open());
  } finally {
    await env.stop();
  }
});

async function bigPlan(page) {
  await h.ready(page);
  const csv = execFileSync('node', [path.join(h.root, 'scripts/gen-synthetic.mjs'), String(N)], { maxBuffer: 1 << 28 });
  await h.drop(page, [['big.csv', csv]]);
  await h.waitForFiles(page, 2);
  assert.equal((await h.summary(page)).planes, N);
  let f = await h.frame(page);
  assert.ok(f.occupancy, 'fitted, the frame is drawn from occupancy tiles');
  assert.equal(f.drawn.length, 0);
  assert.deepEqual(page.consoleErrors, []);

  // The chart is painted: a point on a plane (found by hit-testing) is not background,
  // and most of the plot under the peak is covered.
  const box = await page.locator('#chart').boundingBox();
  const found = await page.evaluate(() => {
    const v = window.__memplan.viewer;
    const f = v.frame();
    const y0 = f.peak_y[0];
    for (let y = y0 + 40; y < y0 + 200; y += 7) {
      for (let x = 300; x < 900; x += 13) {
        const info = v.hover(x, y);
        if (info) { v.hover(-1, -1); return { x, y, name: info.name }; }
      }
    }
    return null;
  });
  assert.ok(found, 'a plane under some point of the fitted chart');
  assert.notDeepEqual(await pixel(page, found.x, found.y), [255, 255, 255]);
  const covered = await page.evaluate((y) => {
    const c = document.getElementById('chart');
    const d = window.devicePixelRatio;
    const row = c.getContext('2d').getImageData(Math.round(200 * d), Math.round(y * d), Math.round(800 * d), 1).data;
    let n = 0;
    for (let i = 0; i < row.length; i += 4) if (!(row[i] === 255 && row[i + 1] === 255 && row[i + 2] === 255)) n++;
    return n / (row.length / 4);
  }, found.y);
  assert.ok(covered > 0.5, `${(covered * 100).toFixed(0)} % of a row under the peak painted`);
  await page.screenshot({ path: path.join(h.results, 'scale-fitted-1280x800.png') });

  // Hover with the real mouse names the plane under it.
  await page.mouse.move(box.x + found.x, box.y + found.y);
  await page.waitForSelector('#tooltip:not([hidden])');
  assert.ok((await page.textContent('#tooltip')).startsWith(found.name), 'the tooltip names the plane');

  // Wheel-zoom on time at that point until planes are rectangles again.
  for (let i = 0; i < 40 && (await h.frame(page)).occupancy; i++) {
    await page.mouse.wheel(0, -500);
  }
  f = await h.frame(page);
  assert.equal(f.occupancy, null, 'zoomed in, the frame is exact');
  assert.ok(f.drawn.length > 0 && f.parts_visited < N / 10, `${f.parts_visited} parts visited`);
  await page.screenshot({ path: path.join(h.results, 'scale-zoomed-1280x800.png') });
  const big = f.drawn.reduce((a, b) => (b.rect.w * b.rect.h > a.rect.w * a.rect.h ? b : a));
  const at = [box.x + big.rect.x + big.rect.w / 2, box.y + big.rect.y + big.rect.h / 2];
  const want = await page.evaluate((i) => window.__memplan.viewer.plane_info(i).name, big.plane);
  await page.mouse.move(at[0] + 1, at[1]);
  await page.mouse.move(...at);
  await page.waitForFunction((n) => document.getElementById('tooltip').textContent.startsWith(n), want);
  await page.mouse.down();
  await page.mouse.up();
  assert.ok((await page.textContent('#pinned')).includes(want), 'the side panel pins it');

  // Back to the whole plan: occupancy again, from the tiles already built.
  await page.keyboard.press('0');
  f = await h.frame(page);
  assert.ok(f.occupancy, 'fitted again');
  assert.equal(f.occupancy.parts_visited, 0, 'the fitted tiles were kept');
  assert.deepEqual(page.consoleErrors, []);
}
