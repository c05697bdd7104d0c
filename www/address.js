// Files named by an address: the page's `?url=ADDRESS` (and `#url=`, `#src=`, share.js),
// fetched read-only from the page's own site or from another that allows it (CORS). The
// one place the page asks a server for a file that is not its own, and it sends nothing
// but the GET of that address (no credentials): what the user drops never leaves.

/** The address a page was opened with as `?url=ADDRESS`, or null. */
export function queryAddress(search = location.search) {
  const url = new URLSearchParams(search).get('url');
  return url && url.trim() ? url.trim() : null;
}

/** A file's name in an address: its last path segment, decoded (`plan` if none). */
export function nameOf(url) {
  const last = url.pathname.split('/').pop() || 'plan';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * The file at `address` (relative to `base`) as `[name, bytes, href]`. Throws an Error
 * whose message names the address and what happened: not an address, a refusal (the
 * network, or another site that does not allow this page to read it), or the server's
 * answer (404…).
 */
export async function fetchFile(address, base = document.baseURI) {
  let url;
  try {
    url = new URL(address, base);
  } catch {
    throw new Error(`“${address}” is not an address`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${url.href}: only http and https addresses are opened`);
  }
  let res;
  try {
    res = await fetch(url, { credentials: 'omit' });
  } catch (e) {
    const other = url.origin !== location.origin;
    throw new Error(`could not read ${url.href}: the request was refused or did not reach the server`
      + (other ? ' (a file on another site opens here only if that site allows it: CORS, '
        + 'Access-Control-Allow-Origin)' : '') + ` [${e.message ?? e}]`);
  }
  if (!res.ok) {
    throw new Error(`could not read ${url.href}: the server answered ${res.status}`
      + (res.statusText ? ` ${res.statusText}` : '') + (res.status === 404 ? ' (no such file)' : ''));
  }
  return [nameOf(url), new Uint8Array(await res.arrayBuffer()), url.href];
}
