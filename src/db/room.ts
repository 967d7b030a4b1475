// Room for the database file to grow in place.
//
// sql.js keeps the database file in a JS array (Emscripten's MEMFS). Past 1 MB that array grows
// in 12.5 % steps, each a new array and a copy of the whole file, with the old one alive until
// the next GC: a full Linux build wrote 4.4 GB of copies and peaked at twice its 534 MB file, and
// a Django build faulted in 68 MB of fresh memory for a 7.5 MB file. MEMFS takes a new file's
// bytes with `bytes.slice(0, length)` on its first write, and only grows the array when a write
// passes its end, so bytes whose `slice` returns a larger zero-filled array give the file room:
// it then never moves. Zero-filled memory that was never written costs no resident memory (the
// allocator maps fresh pages), so the room is reserved address space, not memory.
//
// This leans on MEMFS's behaviour, not an API: test/db-room.test.ts fails if a sql.js upgrade
// changes it, and without the hook everything still works, only slower (MEMFS copies the bytes
// as before).
//
// The room is shared memory where the platform has it (Node; browsers only when cross-origin
// isolated). V8 counts every byte of an ArrayBuffer as external memory, touched or not, and a
// jump of more than 64 MB makes it run a memory-reducing full collection at once: with a 2 GB
// room, every build paused its main thread for 80 ms (Django, an 8 MB heap) to 180 ms early on.
// A SharedArrayBuffer's bytes are not counted. Only this thread reads or writes them (MEMFS
// copies a file out for `export()`), so sharing changes nothing else.
import { platform } from '#platform';

/** Room for a new database: the platform's whole allowance, since a build's size is unknown. */
export function freshRoom(): number {
  return platform.databaseRoomLimit;
}

/** Never less room than this beyond the bytes: a small index grows more than its size. */
const MIN_SLACK = 32 * 2 ** 20;

/**
 * How much room a database file of `length` bytes gets: twice its size and at least 32 MB more,
 * up to the platform's limit, and never less than `length`.
 */
export function roomFor(length: number, limit: number = platform.databaseRoomLimit): number {
  return Math.max(length, Math.min(limit, Math.max(2 * length, length + MIN_SLACK)));
}

/**
 * `bytes` (a database image, not empty) as sql.js's `new Database(...)` should get them for a
 * file with `capacity` bytes of room. The caller's array is left as it is.
 *
 * @example
 * ```ts
 * const db = new SQL.Database(withRoom(bytes, roomFor(bytes.length)));
 * ```
 */
export function withRoom(bytes: Uint8Array, capacity: number): Uint8Array {
  const view = bytes.subarray(0);
  if (capacity <= bytes.length) return view;
  Object.defineProperty(view, 'slice', {
    configurable: true,
    value(start?: number, end?: number): Uint8Array {
      const part = bytes.subarray(start, end);
      // A refused reservation (a 32-bit browser, strict overcommit) halves until one fits.
      for (let size = capacity; size > part.length; size = Math.floor(size / 2)) {
        try {
          const file = zeroedRoom(size);
          file.set(part);
          return file;
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
        }
      }
      return part.slice();
    },
  });
  return view;
}

/** `size` zero bytes, in shared memory where there is one (see the top of this file). */
function zeroedRoom(size: number): Uint8Array {
  return typeof SharedArrayBuffer === 'function' ? new Uint8Array(new SharedArrayBuffer(size)) : new Uint8Array(size);
}
