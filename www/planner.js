// The main thread's side of the planning worker (www/worker.js): one request at a
// time, progress callbacks, and cancel = terminate the worker and start a fresh one
// (a running search cannot be interrupted otherwise without SharedArrayBuffer).

/** Thrown by `run` when the user cancelled. */
export class Cancelled extends Error {
  constructor() { super('cancelled'); }
}

export class PlanWorker {
  constructor() {
    this.next = 1;
    this.pending = null; // { id, resolve, reject, onProgress }
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.finish((p) => p.reject(new Error(`planning worker: ${e.message || 'failed to start'}`)));
    };
  }

  receive(msg) {
    const p = this.pending;
    if (!p || msg.id !== p.id) return;
    if (msg.type === 'progress') p.onProgress?.(msg);
    else if (msg.type === 'done') this.finish((q) => q.resolve(msg));
    else {
      if (msg.fatal) {
        this.worker.terminate();
        this.spawn();
      }
      this.finish((q) => q.reject(new Error(msg.message)));
    }
  }

  finish(how) {
    const p = this.pending;
    this.pending = null;
    if (p) how(p);
  }

  get busy() {
    return this.pending !== null;
  }

  /**
   * Plans `source` (a Blob) named `name` (with `companion`, `{ name, source }`, the file it
   * needs beside it, if any; deployed as `deploy`, `{ recipes, dtype }`, if given) with
   * `strategy` within `millis`. `key`
   * identifies the source, so a re-plan of the same key skips parsing. Resolves to
   * { wire: Uint8Array, report, warnings, sized_by_model }.
   */
  run({ key, name, source, companion, deploy, strategy, millis }, onProgress) {
    if (this.pending) this.cancel();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onProgress };
      this.worker.postMessage({ id, key, name, source, companion, deploy, strategy, millis });
    });
  }

  /** Stops the running request (its promise rejects with Cancelled). */
  cancel() {
    this.worker.terminate();
    this.spawn();
    this.finish((p) => p.reject(new Cancelled()));
  }
}
