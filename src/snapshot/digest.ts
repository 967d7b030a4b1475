// SHA-256 for snapshot and storage keys. Browser-safe: WebCrypto when the host has it (Node 20,
// browsers in secure contexts), else a small pure-JS implementation (plain-http pages have no
// `crypto.subtle`). Both give the same bytes, so keys never depend on the host.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Pure-JS SHA-256 of `bytes`, as 64 lower-case hex digits (the fallback of {@link sha256Hex}). */
export function sha256HexSync(bytes: Uint8Array): string {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, hh = h[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + hh) | 0;
  }
  return [...h].map((x) => x.toString(16).padStart(8, '0')).join('');
}

interface SubtleLike {
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

function subtle(): SubtleLike | undefined {
  const c = (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto;
  return typeof c?.subtle?.digest === 'function' ? c.subtle : undefined;
}

/** Inputs up to this many bytes are hashed in JS, whatever the host offers. */
const SMALL_INPUT = 4096;

/** SHA-256 of `bytes` as hex: WebCrypto when available (for inputs over 4 KiB), else {@link sha256HexSync}. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // A short input (a storage key's fields) costs microseconds in JS, where the first WebCrypto
  // call in a process loads Node's whole WebCrypto module first (10-15 ms of a CLI call).
  if (bytes.length <= SMALL_INPUT) return sha256HexSync(bytes);
  const s = subtle();
  if (s) {
    try {
      const out = new Uint8Array(await s.digest('SHA-256', bytes));
      let hex = '';
      for (const byte of out) hex += byte.toString(16).padStart(2, '0');
      return hex;
    } catch {
      // some hosts expose subtle but refuse to use it (insecure context): fall through
    }
  }
  return sha256HexSync(bytes);
}

/**
 * Hashes a sequence of string fields unambiguously: every field is followed by a NUL, so
 * `['ab','c']` and `['a','bc']` differ. Fields must not contain NUL (paths and numbers never do).
 */
export async function digestFields(fields: readonly string[]): Promise<string> {
  return sha256Hex(new TextEncoder().encode(fields.join('\0') + '\0'));
}

const encoder = new TextEncoder();

/**
 * Collects a digest's input as bytes without building an intermediate string per field (the
 * Linux tree's key has 56k records; strings and their garbage cost more than hashing).
 * Strings are written NUL-terminated; raw byte runs must have a length fixed by the caller's
 * record layout, so the encoding stays unambiguous.
 */
export class DigestInput {
  #bytes = new Uint8Array(1 << 16);
  #length = 0;

  #reserve(extra: number): void {
    if (this.#length + extra <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < this.#length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = grown;
  }

  /** Appends a string and a NUL. */
  string(value: string): this {
    this.#reserve(value.length * 3 + 1); // UTF-8 needs at most 3 bytes per UTF-16 unit
    this.#length += encoder.encodeInto(value, this.#bytes.subarray(this.#length)).written;
    this.#bytes[this.#length++] = 0;
    return this;
  }

  /** Appends `length` raw bytes of `source` from `start`. */
  raw(source: Uint8Array, start: number, length: number): this {
    this.#reserve(length);
    this.#bytes.set(source.subarray(start, start + length), this.#length);
    this.#length += length;
    return this;
  }

  /** SHA-256 of everything appended, as hex. */
  digest(): Promise<string> {
    return sha256Hex(this.#bytes.subarray(0, this.#length));
  }
}
