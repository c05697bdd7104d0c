// Writes a synthetic MiniMalloc CSV with given offsets, for viewer benchmarks:
// `node scripts/gen-synthetic.mjs N > file.csv` (default 100000 buffers).
// Four buffers start per clock, each lives 1..7 clocks, in 32 slots of 4 KiB;
// buffers sharing a slot start at least 8 clocks apart, so the plan is valid.
const n = Number(process.argv[2] ?? 100000);
const lines = ['id,lower,upper,size,offset'];
for (let i = 0; i < n; i++) {
  const lower = Math.floor(i / 4);
  const upper = lower + 1 + (i % 7);
  const size = 64 + ((i * 37) % 4032);
  lines.push(`b${i},${lower},${upper},${size},${(i % 32) * 4096}`);
}
process.stdout.write(lines.join('\n') + '\n');
