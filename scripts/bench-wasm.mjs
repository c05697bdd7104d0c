#!/usr/bin/env node
// The strategies benchmark in wasm under node: the same Rust code as
// `cargo run --release --example bench`, compiled to wasm32 (see docs/benchmarks.md).
//
//   node scripts/bench-wasm.mjs [--millis N] [--only S,S...] [--passes] [--synthetic] [--no-build] PATH...
//
// `--only` names the strategies to run (default: all), `--passes` prints every greedy
// pass and the sweep instead, as the native example does.
// Builds the library for wasm32 and binds it for node (wasm-bindgen --target nodejs)
// into $CARGO_TARGET_DIR/bench-wasm/ (default target/), then prints one Markdown table.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
let millis = 2000;
let synthetic = false;
let build = true;
let only = "";
let passes = false;
const paths = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--millis") millis = Number(args[++i]);
  else if (args[i] === "--synthetic") synthetic = true;
  else if (args[i] === "--no-build") build = false;
  else if (args[i] === "--only") only = args[++i];
  else if (args[i] === "--passes") passes = true;
  else paths.push(args[i]);
}

// Honours CARGO_TARGET_DIR, as scripts/build.sh does.
const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const out = join(target, "bench-wasm");
if (build || !existsSync(join(out, "memplan.js"))) {
  const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: root, stdio: "inherit" });
  run("cargo", ["build", "--lib", "--release", "--features", "tools", "--target", "wasm32-unknown-unknown"]);
  run("wasm-bindgen", [
    "--target", "nodejs", "--no-typescript", "--out-dir", out,
    join(target, "wasm32-unknown-unknown", "release", "memplan.wasm"),
  ]);
}
// The crate's package.json says "type": "module"; the nodejs glue is CommonJS.
writeFileSync(join(out, "package.json"), '{ "type": "commonjs" }\n');
const wasm = createRequire(import.meta.url)(join(out, "memplan.js"));

const files = [];
for (const p of paths) {
  if (statSync(p).isDirectory()) {
    files.push(...readdirSync(p).filter((f) => f.endsWith(".csv")).sort().map((f) => join(p, f)));
  } else files.push(p);
}
// Each call returns a header, a separator and one row; keep the header once.
const rows = [];
let header = null;
const add = (table) => {
  const lines = table.trimEnd().split("\n");
  header ??= lines.slice(0, 2);
  rows.push(...lines.slice(2));
};
if (synthetic && !passes) for (const n of [1000, 10000, 60000, 250000]) add(wasm.bench_synthetic(n, millis, only));
for (const f of files) {
  const text = readFileSync(f, "utf8");
  add(passes ? wasm.bench_csv_passes(basename(f), text) : wasm.bench_csv(basename(f), text, millis, only));
}
if (header) console.log([...header, ...rows].join("\n"));
