// The postMessage API of the page (index.html) and of embed.html, for a page that embeds
// memplan in an iframe or opens it with window.open. The handshake is Perfetto's: the
// page may still be loading, so the embedder posts PING until the page answers PONG,
// then sends its requests. Only the frame's parent or the window's opener is answered,
// always at the origin it wrote from.
//
//   → 'PING' or {type: 'PING', id}          ← {type: 'PONG', id, version}
//   → {type: 'open', id, name, bytes}       bytes: ArrayBuffer, a typed array or text
//                                           ← result {name, summary}: the plan is shown
//   → {type: 'set', id, names?, hex?, theme?}   names, hex: booleans; theme: light, dark
//                                           or auto ← result {names, hex, theme}
//   → {type: 'report', id}                  ← result {name, summary, report}: the plan
//                                           shown, if this API opened it
//
// Every request but PING is answered once, with its id:
// {type: 'reply', id, ok: true, result} or {type: 'reply', id, ok: false, error}.
// `summary` is {peak, peak_bytes, lower_bound, bound_name, efficiency, planes, steps,
// findings} (the page's figures, as text; `peak_bytes` digits), `report` the planning
// report (strategy, peak, lower bound… as `memplan plan` reports it).
//
// A plan the user opened in the page is never reported to the embedder: `report`
// answers only for files the embedder itself sent (what the user drops never leaves
// the page).

export const VERSION = 1;

/** The shown plan's figures (`viewer.summary()`), as the API sends them. */
export function describe(viewer) {
  const s = viewer.summary();
  if (!s) return null;
  const m = s.memories;
  return {
    peak: m ? m.total : s.peak,
    peak_bytes: m ? m.total_bytes : s.peak_bytes,
    lower_bound: m ? m.lower_bound : s.lower_bound,
    bound_name: s.bound_name,
    efficiency: m ? m.efficiency : s.efficiency,
    planes: s.planes,
    steps: s.steps - s.producers,
    findings: s.findings.length + s.findings_omitted,
  };
}

/** `bytes` of a message as a Uint8Array: an ArrayBuffer, a typed array or text. */
function bytesOf(bytes) {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (typeof bytes === 'string') return new TextEncoder().encode(bytes);
  throw new Error('open: `bytes` must be an ArrayBuffer, a typed array or a string');
}

/**
 * Answers the embedder's messages with `host`: `open(name, bytes)` shows a plan and
 * resolves to its file id, `set({names, hex, theme})` applies what is given and returns
 * what holds, `current()` is the shown file's id, `viewer` the Viewer that shows it.
 */
export function installEmbedApi(host) {
  /** Ids of the files this API opened: the only ones it reports. */
  const mine = new Set();
  const handlers = {
    async open({ name, bytes }) {
      if (typeof name !== 'string' || !name.trim()) throw new Error('open: `name` must be a file name (its suffix tells the format)');
      const id = await host.open(name.trim(), bytesOf(bytes));
      mine.add(id);
      return { name: host.viewer.file_name(id), summary: describe(host.viewer) };
    },
    set(options) {
      const { names, hex, theme } = options;
      if (names != null && typeof names !== 'boolean') throw new Error('set: `names` must be true or false');
      if (hex != null && typeof hex !== 'boolean') throw new Error('set: `hex` must be true or false');
      if (theme != null && !['light', 'dark', 'auto'].includes(theme)) throw new Error('set: `theme` must be light, dark or auto');
      return host.set({ names, hex, theme });
    },
    report() {
      const id = host.current();
      if (id == null) throw new Error('report: no plan is shown');
      if (!mine.has(id)) throw new Error('report: the plan shown was not opened through this API (the page reports only the plans its embedder sent)');
      return { name: host.viewer.file_name(id), summary: describe(host.viewer), report: host.viewer.report(id) ?? null };
    },
  };
  window.addEventListener('message', async (e) => {
    // The parent of a frame, or the opener of a window: no other page talks to this one.
    const from = e.source;
    if (!from || from === window || (from !== window.parent && from !== window.opener)) return;
    const origin = e.origin === 'null' ? '*' : e.origin;
    const msg = e.data;
    if (msg === 'PING' || (msg && msg.type === 'PING')) {
      from.postMessage({ type: 'PONG', id: msg?.id ?? null, version: VERSION }, origin);
      return;
    }
    if (!msg || typeof msg !== 'object' || typeof msg.type !== 'string') return;
    const id = msg.id ?? null;
    const handler = Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
    try {
      if (!handler) throw new Error(`unknown request type “${msg.type}” (open, set, report, PING)`);
      const result = await handler(msg);
      from.postMessage({ type: 'reply', id, ok: true, result }, origin);
    } catch (err) {
      from.postMessage({ type: 'reply', id, ok: false, error: String(err?.message ?? err) }, origin);
    }
  });
}
