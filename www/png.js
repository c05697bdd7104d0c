// PNG of any width from a wasm Picture (src/web/embed.rs): the picture is replayed
// tile by tile onto one small canvas, the tiles' pixels are stitched into bands of
// full-width rows, and the rows stream through the browser's own zlib
// (CompressionStream 'deflate'), so no canvas is ever larger than TILE × BAND and a
// 30,000-pixel-wide chart is complete. Only filter type 0 is written: simple, and
// the deflate of flat chart colours is small anyway.

const TILE = 4096;
const BAND = 256;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(parts) {
  let c = 0xffffffff;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC of type + data. */
function chunk(type, data) {
  const head = new Uint8Array(8);
  const view = new DataView(head.buffer);
  view.setUint32(0, data.length);
  const name = new TextEncoder().encode(type);
  head.set(name, 4);
  const tail = new Uint8Array(4);
  new DataView(tail.buffer).setUint32(0, crc32([name, data]));
  return [head, data, tail];
}

/**
 * Encodes `picture` (width(), height(), paint_tile(ctx, x, y)) as a PNG Blob.
 * `onProgress(fraction)` is called after each band.
 */
export async function picturePng(picture, onProgress = () => {}) {
  const W = picture.width();
  const H = picture.height();
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const cs = new CompressionStream('deflate');
  const writer = cs.writable.getWriter();
  const compressed = new Response(cs.readable).arrayBuffer();
  const stride = W * 4 + 1;
  for (let y0 = 0; y0 < H; y0 += BAND) {
    const bh = Math.min(BAND, H - y0);
    const rows = new Uint8Array(stride * bh); // filter byte 0 on every row
    for (let x0 = 0; x0 < W; x0 += TILE) {
      const tw = Math.min(TILE, W - x0);
      canvas.width = tw;
      canvas.height = bh;
      picture.paint_tile(ctx, x0, y0);
      const px = ctx.getImageData(0, 0, tw, bh).data;
      for (let r = 0; r < bh; r++) {
        rows.set(px.subarray(r * tw * 4, (r + 1) * tw * 4), r * stride + 1 + x0 * 4);
      }
    }
    await writer.write(rows);
    onProgress(Math.min(1, (y0 + bh) / H));
  }
  await writer.close();
  const idat = new Uint8Array(await compressed);
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, W);
  v.setUint32(4, H);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter set, no interlace
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), ...chunk('IHDR', ihdr)];
  // IDAT chunks of at most 1 GiB (a chunk length is 31 bits).
  for (let i = 0; i < idat.length; i += 1 << 30) parts.push(...chunk('IDAT', idat.subarray(i, i + (1 << 30))));
  parts.push(...chunk('IEND', new Uint8Array(0)));
  return new Blob(parts, { type: 'image/png' });
}
