// Decoding and line arithmetic of searched files.

interface NodeBufferStatic {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'latin1' | 'utf8'): string };
  byteLength(text: string, encoding: 'utf8'): number;
}
// Node's Buffer decodes one byte per character about 3× faster than TextDecoder; browsers use TextDecoder.
const nodeBuffer = (globalThis as { Buffer?: NodeBufferStatic }).Buffer;
const fastBuffer = nodeBuffer !== undefined && typeof nodeBuffer.from === 'function' && typeof nodeBuffer.byteLength === 'function' ? nodeBuffer : undefined;
const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * The file's text. Most source files are ASCII, where one byte per character (the fastest
 * decoding there is) gives the exact text; any other file is decoded as UTF-8, invalid
 * sequences becoming U+FFFD (a bad byte never stops a search).
 */
export function decodeText(bytes: Uint8Array): string {
  if (fastBuffer !== undefined) {
    const buffer = fastBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const text = buffer.toString('latin1');
    // One byte per character is the UTF-8 text exactly when every byte is ASCII, that is when
    // the text's UTF-8 length is its byte count (a native count, 6× faster than a regex scan).
    return fastBuffer.byteLength(text, 'utf8') === bytes.length ? text : buffer.toString('utf8');
  }
  return utf8.decode(bytes);
}

/** Offsets where each line of `text` starts (the first is 0). A final line break starts no line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The index of the line holding `offset`, searching `starts` from `hint` on (offsets only grow). */
export function lineAt(starts: readonly number[], offset: number, hint = 0): number {
  let lo = hint;
  let hi = starts.length - 1;
  if (lo > hi) return hi;
  if (starts[lo]! > offset) lo = 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Longest line text shown; the rest is replaced by a marker saying how much was cut. */
export const MAX_LINE_CHARS = 500;

/** The text of line `index`, without its line break (nor a CRLF's \r), cut at {@link MAX_LINE_CHARS}. */
export function lineText(text: string, starts: readonly number[], index: number): { text: string; truncated: boolean } {
  const start = starts[index]!;
  let end = index + 1 < starts.length ? starts[index + 1]! - 1 : text.length;
  if (end > start && text.charCodeAt(end - 1) === 10) end--; // the last line's own break
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  if (end - start <= MAX_LINE_CHARS) return { text: text.slice(start, end), truncated: false };
  let cut = start + MAX_LINE_CHARS;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // never split a surrogate pair
  return { text: `${text.slice(start, cut)} [… ${end - cut} more characters]`, truncated: true };
}
