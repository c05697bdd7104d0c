// Writes a synthetic, valid placed plan for viewer benchmarks and scale tests:
//   node scripts/gen-synthetic.mjs N                      MiniMalloc CSV (default 100000)
//   node scripts/gen-synthetic.mjs N --json [--wrap F] [--stride F]
//                                                         memplan JSON plan, a fraction F of
//                                                         planes wrapped around / striped
//   node scripts/gen-synthetic.mjs N --dense              MiniMalloc CSV without offsets, a
//                                                         dense trace: ~2,500 buffers live at
//                                                         any step (memplan places it on open)
// Four planes start per clock, each lives 1..7 clocks, in 32 slots of 8 KiB; planes
// sharing a slot start at least 8 clocks apart, so the plan is valid (`memplan check`).
// A wrapped plane starts halfway in its space and continues at its start (Aidge's
// wrap-around); a striped one is 2 chunks at a stride of twice their size (Aidge's
// concatenation layout). Output is streamed: 1,000,000 planes need no big string.
import fs from 'node:fs';

const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(name);
  return i < 0 ? def : Number(args[i + 1]);
};
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 100000);
const json = args.includes('--json');
const dense = args.includes('--dense');
const wrapShare = flag('--wrap', 0.1);
const strideShare = flag('--stride', 0.1);
const SLOT = 8192;

const out = [];
let pending = 0;
function emit(s) {
  out.push(s);
  pending += s.length;
  if (pending > 1 << 20) flush();
}
function flush() {
  fs.writeSync(1, out.join(''));
  out.length = 0;
  pending = 0;
}

const lowerOf = (i) => Math.floor(i / 4);
const upperOf = (i) => lowerOf(i) + 1 + (i % 7);
const sizeOf = (i) => 64 * (1 + ((i * 37) % 127)); // 64 B .. 8 KiB, multiple of 64

// Dense: four buffers start per clock and live 1..1249 clocks (a multiplicative
// hash of the index spreads the lengths), 625 on average, so ~2,500 are live.
const denseUpper = (i) => lowerOf(i) + 1 + (Math.imul(i, 2654435761) >>> 0) % 1249;

if (dense) {
  emit('id,lower,upper,size\n');
  for (let i = 0; i < n; i++) emit(`b${i},${lowerOf(i)},${denseUpper(i)},${sizeOf(i)}\n`);
  flush();
} else if (!json) {
  emit('id,lower,upper,size,offset\n');
  for (let i = 0; i < n; i++) emit(`b${i},${lowerOf(i)},${upperOf(i)},${sizeOf(i)},${(i % 32) * SLOT}\n`);
  flush();
} else {
  // Deterministic choice of the kind of each plane, spread evenly.
  const kind = (i) => {
    const u = ((i * 2654435761) % 4294967296) / 4294967296;
    return u < wrapShare ? 'wrap' : u < wrapShare + strideShare ? 'stride' : 'plain';
  };
  const horizon = n ? upperOf(n - 1) + 7 : 1;
  emit('{"format": "memplan", "version": 1, "plan": {\n"steps": [');
  for (let t = 0; t < horizon; t++) emit(`${t ? ',' : ''}{"name": "step${t}", "type": "Synthetic", "clock": ${t}}`);
  emit('],\n"components": [],\n"spaces": [');
  for (let i = 0; i < n; i++) {
    emit(`${i ? ',\n' : ''}{"component": 0, "offset": ${(i % 32) * SLOT}, "size": ${sizeOf(i)}, "allocated": ${lowerOf(i)}, "released": ${upperOf(i) - 1}}`);
  }
  emit('],\n"planes": [');
  const perNode = new Map();
  for (let i = 0; i < n; i++) {
    const node = lowerOf(i);
    const index = perNode.get(node) ?? 0;
    perNode.set(node, index + 1);
    const base = (i % 32) * SLOT;
    const sz = sizeOf(i);
    let p;
    if (kind(i) === 'wrap') {
      // Starts at half the space, the second half wraps to its start.
      p = { offset: sz / 2, size: sz, stride: sz, length: 1, count: 1,
        cont_offset: base + sz / 2, cont_size: sz / 2, wrap_offset: base, wrap_size: sz / 2 };
    } else if (kind(i) === 'stride') {
      p = { offset: 0, size: sz / 4, stride: sz / 2, length: 1, count: 2,
        cont_offset: base, cont_size: sz, wrap_offset: 0, wrap_size: 0 };
    } else {
      p = { offset: 0, size: sz, stride: sz, length: 1, count: 1,
        cont_offset: base, cont_size: sz, wrap_offset: 0, wrap_size: 0 };
    }
    emit(`${i ? ',\n' : ''}${JSON.stringify({ node, index, space: i, allocated: lowerOf(i), ...p, label: `p${i}` })}`);
  }
  emit(`],\n"max_lifetime": ${horizon - 1}}}\n`);
  flush();
}
