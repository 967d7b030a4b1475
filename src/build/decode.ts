// Lenient decoding: one bad byte must never abort a build (reference defect 18).
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Decodes UTF-8, replacing invalid sequences with U+FFFD. */
export function decodeSource(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** True when the first 8 KiB contain a NUL byte: treated as a binary file. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * True for minified bundles: large files whose average line is very long. Hand-written code
 * rarely averages more than 200 characters per line.
 */
export function looksMinified(bytes: Uint8Array, minSize = 4096, maxAverageLine = 500): boolean {
  if (bytes.length < minSize) return false;
  let lines = 1;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lines++;
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
