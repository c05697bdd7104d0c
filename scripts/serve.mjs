// A tiny static file server for dist/ (no framework): correct MIME types, including
// application/wasm so browsers can stream-compile the module, and no directory
// escapes. `node scripts/serve.mjs [dir]`; PORT overrides 8080, BASE serves the folder
// under a sub-path (`BASE=/memplan/`, as GitHub Pages serves a project's site). Also
// imported by the end-to-end tests and the benchmark, which pass port 0 for a free port.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Serves `root` on 127.0.0.1:`port`; resolves to the listening server and its URL.
 * `at`: the sub-path the folder is served under (`/memplan/`: anything else is 404, and
 * `/memplan` redirects to it); `cors`: every answer allows any site to read it.
 */
export function serve(root, port = 8080, { at = '/', cors = false } = {}) {
  const base = path.resolve(root);
  const prefix = at.endsWith('/') ? at : `${at}/`;
  const server = http.createServer(async (req, res) => {
    if (cors) res.setHeader('access-control-allow-origin', '*');
    try {
      const url = new URL(req.url, 'http://localhost');
      if (url.pathname === prefix.slice(0, -1) && prefix !== '/') {
        res.writeHead(301, { location: prefix + url.search }).end();
        return;
      }
      if (!url.pathname.startsWith(prefix)) throw new Error('outside the served path');
      let rel = decodeURIComponent(url.pathname.slice(prefix.length - 1));
      if (rel.endsWith('/')) rel += 'index.html';
      const file = path.resolve(base, '.' + rel);
      if (file !== base && !file.startsWith(base + path.sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      const body = await fs.readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      resolve({ server, url: `http://127.0.0.1:${p}${prefix}` });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = process.argv[2] ?? 'dist';
  const port = Number(process.env.PORT ?? 8080);
  const { url } = await serve(root, port, { at: process.env.BASE ?? '/' });
  console.log(`memplan viewer: ${url}  (serving ${root}/, Ctrl+C to stop)`);
}
