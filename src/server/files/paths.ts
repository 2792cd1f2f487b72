// Where a state's snapshot lives on disk, and back. A location maps to a path relative to the
// output folder: its path segments as folders and `index.html` (`/books/42` -> `books/42/index.html`),
// or `index.<query>.html` for a state with a query (`/?tab=x` -> `index.tab=x.html`). Segments are
// kept in canonical spelling, which never holds `/`, NUL, `..` or `%2E`; anything that would leave
// the folder is refused (SECURITY.md: a decoded state never names a file outside `outDir`).
//
// The layout is the same on every platform, and every name in it is one Windows can hold and that
// aliases nothing else there. Canonical spelling already percent-encodes control characters, space,
// `<>"|\` and every non-ASCII character (so the superscript-digit devices `COM¹`, `LPT²` are never
// raw, and names are ASCII: case folding is ASCII folding). What it can leave raw is written here:
// - `:` and `*` (and `?` and `/` in a query) as `%3A`, `%2A`, `%3F`, `%2F`. Canonical spelling
//   keeps those escapes (they are reserved characters), so one that the location itself holds gets
//   its `%` written `%25` (`/a%3Ab` -> `a%253Ab`, `/a%253Ab` -> `a%25253Ab`): only escapes of
//   these four (and of `%25` before them) change, so `caf%C3%A9` and `50%25` stay as they are.
// - a name Windows strips or reserves, by an escape of a character canonical spelling never
//   escapes (an unreserved one, so the escape is always decoded and can never be the location's
//   own): a segment ending in `.` gets that `.` as `%2E` (`a.` -> `a%2E`, since Windows would open
//   `a`); a device name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, CONIN$, CONOUT$, any case, with or
//   without an extension) its third letter (`CON` -> `CO%4E`, `lpt1.txt` -> `lp%741.txt`); a folder
//   named like a snapshot file its first `.` (`index.html` -> `index%2Ehtml`, any case).
// Encoding rather than refusing keeps these states prerendered and cached by `fileStore`. No
// encoding keeps them on a static host: one maps the URL `/CON` or `/a:b` to the very name Windows
// cannot hold, so a host on Linux finds no file for them either way; every other name is unchanged.
//
// Case: on a case-insensitive file system (macOS, Windows) `Books/1` and `books/1` are one file,
// and `Books/x` and `books/y` share a folder; collisions.ts finds such pairs the same way on every
// platform, and folder.ts refuses a name the disk holds under another spelling.

import path from 'node:path';
import { normalizeLocation, stripAnchor, type AppLocation } from '../../url/location.js';
import { SnapshotError } from '../errors.js';

// File names are limited to 255 bytes on common file systems.
const NAME_MAX = 255;
// Folders a snapshot's path may go down. Each is checked on the disk by its real path (folder.ts),
// and realpath(3) walks the whole path each time: cubic in the depth, so a state a crawler made 500
// folders deep (a wildcard route's) cost seconds of a request. No site's URLs go this deep.
const DEPTH_MAX = 32;
// A folder named like a snapshot file would collide with one (in any case, on a case-insensitive disk).
const LOOKS_LIKE_FILE = /^index\..*html$/i;
// Windows device names: the part before the first `.`, in any case.
const DEVICE = /^(?:CON|PRN|AUX|NUL|COM\d|LPT\d|CONIN\$|CONOUT\$)(?:\.|$)/i;
// Escapes of the characters Windows refuses that canonical spelling may leave raw, with any `%25`s
// before them: in a segment (`/` is never raw there) and in a query.
const SEGMENT_ESCAPES = /%((?:25)*(?:3A|2A|3F))/g;
const QUERY_ESCAPES = /%((?:25)*(?:3A|2A|3F|2F))/g;
const SEGMENT_RAW = /[:*]/g;
const QUERY_RAW = /[:*?/]/g;
// In a file name: an escape of those characters (the location's own raw character) or one with a
// `%25` more (the location's own escape).
const SEGMENT_NAME = /%(?:25((?:25)*(?:3A|2A|3F))|(3A|2A|3F))/g;
const QUERY_NAME = /%(?:25((?:25)*(?:3A|2A|3F|2F))|(3A|2A|3F|2F))/g;
// Escapes of unreserved characters: never in canonical spelling, so only this file writes them.
const UNRESERVED_ESCAPE = /%(?:2[DE]|3\d|4[1-9A-F]|5[\dAF]|6[1-9A-F]|7[\dAE])/g;

const escapeOf = (char: string) => '%' + char.charCodeAt(0).toString(16).toUpperCase();

/** A segment or query as a file name holds it: reserved escapes get a `%25` more, then the raw characters are escaped. */
const encodeReserved = (text: string, escapes: RegExp, raw: RegExp) => text.replace(escapes, '%25$1').replace(raw, escapeOf);

/** The inverse of `encodeReserved`. */
const decodeReserved = (text: string, names: RegExp) =>
  text.replace(names, (_, own: string | undefined, char: string | undefined) =>
    own !== undefined ? '%' + own : String.fromCharCode(parseInt(char as string, 16)),
  );

/** Writes the character at `i` of `name` as its escape. */
const escapeAt = (name: string, i: number) => name.slice(0, i) + escapeOf(name[i] as string) + name.slice(i + 1);

function unsafe(location: AppLocation, why: string): never {
  throw new SnapshotError('UNSAFE_PATH', `the snapshot of ${JSON.stringify(location)} has no safe file path: ${why}`);
}

/** The folder name of a canonical path segment. */
function folderName(location: AppLocation, segment: string): string {
  if (segment === '' || segment === '.' || segment === '..' || /[\\\0]/.test(segment) || path.isAbsolute(segment))
    unsafe(location, `segment ${JSON.stringify(segment)}`);
  if (Buffer.byteLength(segment) > NAME_MAX) unsafe(location, `a segment is longer than ${NAME_MAX} bytes`);
  let name = encodeReserved(segment, SEGMENT_ESCAPES, SEGMENT_RAW);
  if (name.endsWith('.')) name = escapeAt(name, name.length - 1);
  if (DEVICE.test(name)) name = escapeAt(name, 2);
  if (LOOKS_LIKE_FILE.test(name)) name = escapeAt(name, 5);
  if (Buffer.byteLength(name) > NAME_MAX) unsafe(location, `a segment's file name is longer than ${NAME_MAX} bytes`);
  return name;
}

/** The snapshot file of a location, relative to the output folder, with `/` separators; throws `SnapshotError` UNSAFE_PATH. */
export function snapshotPath(location: AppLocation): string {
  if (typeof location !== 'string' || !location.startsWith('/')) unsafe(String(location), 'a location starts with "/"');
  if (location.includes('\0')) unsafe(location, 'it holds NUL');
  const state = stripAnchor(normalizeLocation(location));
  const q = state.indexOf('?');
  const segments = (q < 0 ? state : state.slice(0, q)).split('/').slice(1);
  if (segments[segments.length - 1] === '') segments.pop();
  if (segments.length > DEPTH_MAX) unsafe(location, `it is more than ${DEPTH_MAX} folders deep`);
  const folders = segments.map((segment) => folderName(location, segment));
  const name = q < 0 ? 'index.html' : `index.${encodeReserved(state.slice(q + 1), QUERY_ESCAPES, QUERY_RAW)}.html`;
  if (Buffer.byteLength(name) > NAME_MAX) unsafe(location, `its query makes a file name longer than ${NAME_MAX} bytes`);
  return [...folders, name].join('/');
}

/** The location whose snapshot a file is (the inverse of `snapshotPath`), or null for any other file. */
export function snapshotLocation(file: string): AppLocation | null {
  const parts = file.split(/[\\/]/);
  const name = parts.pop() as string;
  let query = '';
  if (name !== 'index.html') {
    const m = /^index\.(.+)\.html$/.exec(name);
    if (!m) return null;
    query = '?' + decodeReserved(m[1] as string, QUERY_NAME);
  }
  const segments = parts.map((part) => decodeReserved(part.replace(UNRESERVED_ESCAPE, unescape), SEGMENT_NAME));
  const location = '/' + segments.join('/') + query;
  // Only a file that snapshotPath could have written names a location.
  try {
    return normalizeLocation(location) === location && snapshotPath(location) === parts.concat(name).join('/') ? location : null;
  } catch {
    return null;
  }
}

/** The absolute path of a snapshot file under `root`, checked to stay inside it. */
export function resolveInside(root: string, relative: string): string {
  const base = path.resolve(root);
  const file = path.resolve(base, ...relative.split('/'));
  if (!file.startsWith(base + path.sep)) unsafe(relative, 'it leaves the output folder');
  return file;
}
