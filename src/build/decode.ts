// Lenient decoding: one bad byte must never abort a build (reference defect 18).
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Decodes UTF-8, replacing invalid sequences with U+FFFD. */
export function decodeSource(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** True when the first 8 KiB contain a NUL byte: treated as a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  // indexOf runs natively (memchr): this check is on the main thread for every file.
  return bytes.subarray(0, 8192).indexOf(0) >= 0;
}

/**
 * True for minified bundles: large files whose average line is very long. Hand-written code
 * rarely averages more than 200 characters per line.
 */
export function looksMinified(bytes: Uint8Array, minSize = 4096, maxAverageLine = 500): boolean {
  if (bytes.length < minSize) return false;
  // Count newlines with native indexOf (memchr), about 15× faster than a byte loop in JS, and
  // stop as soon as the average line is short enough.
  const enough = Math.ceil(bytes.length / maxAverageLine);
  let lines = 1;
  for (let i = bytes.indexOf(10); i >= 0 && lines < enough; i = bytes.indexOf(10, i + 1)) lines++;
  return bytes.length / lines > maxAverageLine;
}

/** A fast, non-cryptographic 64-bit content hash (two 32-bit FNV-1a lanes), as hex. */
export function contentHash(bytes: Uint8Array): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    h1 = Math.imul(h1 ^ b, 0x01000193);
    h2 = Math.imul(h2 ^ b, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0') + bytes.length.toString(16);
}
