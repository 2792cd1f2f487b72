// Where a state's snapshot lives on disk, and back. A location maps to a path relative to the
// output folder: its path segments as folders and `index.html` (`/books/42` -> `books/42/index.html`),
// or `index.<query>.html` for a state with a query (`/?tab=x` -> `index.tab=x.html`). Segments are
// kept in canonical spelling, which never holds `/`, NUL, `..` or `%2E`; anything that would leave
// the folder is refused (SECURITY.md: a decoded state never names a file outside `outDir`).

import path from 'node:path';
import { normalizeLocation, stripAnchor, type AppLocation } from '../../location.js';
import { SnapshotError } from '../errors.js';

// File names are limited to 255 bytes on common file systems.
const NAME_MAX = 255;
// A folder named like a snapshot file would collide with one: its first `.` is written `%2E`,
// which canonical spelling never holds (`.` is unreserved, so `%2E` is always decoded).
const LOOKS_LIKE_FILE = /^index\..*html$/;

function unsafe(location: AppLocation, why: string): never {
  throw new SnapshotError('UNSAFE_PATH', `the snapshot of ${JSON.stringify(location)} has no safe file path: ${why}`);
}

/** The snapshot file of a location, relative to the output folder, with `/` separators; throws `SnapshotError` UNSAFE_PATH. */
export function snapshotPath(location: AppLocation): string {
  if (typeof location !== 'string' || !location.startsWith('/')) unsafe(String(location), 'a location starts with "/"');
  if (location.includes('\0')) unsafe(location, 'it holds NUL');
  const state = stripAnchor(normalizeLocation(location));
  const q = state.indexOf('?');
  const segments = (q < 0 ? state : state.slice(0, q)).split('/').slice(1);
  if (segments[segments.length - 1] === '') segments.pop();
  const folders = segments.map((segment) => {
    if (segment === '' || segment === '.' || segment === '..' || /[\\\0]/.test(segment) || path.isAbsolute(segment))
      unsafe(location, `segment ${JSON.stringify(segment)}`);
    if (Buffer.byteLength(segment) > NAME_MAX) unsafe(location, `a segment is longer than ${NAME_MAX} bytes`);
    return LOOKS_LIKE_FILE.test(segment) ? 'index%2E' + segment.slice(6) : segment;
  });
  const name = q < 0 ? 'index.html' : `index.${state.slice(q + 1).replace(/\//g, '%2F')}.html`;
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
    query = '?' + (m[1] as string).replace(/%2F/g, '/');
  }
  const segments = parts.map((part) => (part.startsWith('index%2E') ? 'index.' + part.slice(8) : part));
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
