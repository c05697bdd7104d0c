// The view as text, one rule for the page and the CLI: www/memplan-ui.js's parseView
// reads every case of tests/data/view_texts.json as src/cli/render.rs's parse_view does
// (its unit test reads the same table). Node only, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseView } from '../../www/memplan-ui.js';

const table = JSON.parse(readFileSync(new URL('../data/view_texts.json', import.meta.url), 'utf8'));

test('parseView reads every case of the shared table as the CLI does', () => {
  assert.ok(table.cases.length >= 10);
  for (const [text, want] of table.cases) {
    assert.deepEqual(parseView(text), want, `view text ${JSON.stringify(text)}`);
  }
});
