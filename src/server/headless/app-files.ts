// What a headless page may fetch: the app's own files from its folder on disk (served at `base` on
// the app's origin), the shell at the state's own URL, and, when configured, the app's own API on
// an upstream server. Every other origin is refused, and no URL can name a file outside the folder
// (no `..`, no encoded slash or NUL, no symlink out), nor a hidden one (`.env`, `.git/`):
// SECURITY.md, "Untrusted inputs".

import { promises as fsp, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { MAX_FRAME } from './protocol.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** The Content-Type of a file, by its extension. */
export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The path under `root` that a URL path names, or null when the path lies outside `base` or would
 * leave `root`: a segment that decodes to a hidden name (`.env`, `.`, `..`) or holds `/`, `\` or NUL,
 * or a malformed escape. `hidden` allows hidden names but `.` and `..`, for a path the server was
 * given (its shell), never for one a page asks for.
 */
export function filePath(root: string, base: string, pathname: string, hidden = false): string | null {
  if (!pathname.startsWith(base)) return null;
  const parts: string[] = [];
  for (const segment of pathname.slice(base.length).split('/')) {
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return null;
    }
    // A hidden name (`.env`, `.git/`) is never the app's to load, as static servers hide it; `.` and `..` are among them.
    if (
      (name[0] === '.' && (!hidden || name === '.' || name === '..')) ||
      /[/\\\0]/.test(name) ||
      path.isAbsolute(name) ||
      /^[A-Za-z]:$/.test(name)
    )
      return null;
    if (name !== '') parts.push(name);
  }
  const file = path.join(root, ...parts);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

/** The app's folder, with its real path fixed once. */
export interface AppFolder {
  /** The folder's real path. */
  readonly root: string;
  /** The file a URL path names, if it is a regular file inside the folder (symlinks resolved) of at most MAX_FRAME bytes; a hidden one only when `hidden` (the server's shell). */
  find(base: string, pathname: string, hidden?: boolean): Promise<string | null>;
  /** The same, synchronously (the renderer's check of its shell when it is made). */
  findSync(base: string, pathname: string, hidden?: boolean): string | null;
  /** Reads a file `find` returned. */
  read(file: string): Promise<Buffer>;
}

/** Opens the app's folder; throws when it is not a directory. */
export function openAppFolder(folder: string): AppFolder {
  const root = realpathSync(folder);
  if (!statSync(root).isDirectory()) throw new Error(`${folder} is not a directory`);
  const inside = (real: string) => real.startsWith(root + path.sep);
  // A file a page may have is one answer's worth (MAX_FRAME): a bigger one (a video in the folder) is
  // never read whole into the server for a page, which may ask for it a thousand times.
  const small = (stat: Stats) => stat.isFile() && stat.size <= MAX_FRAME;
  return {
    root,
    async find(base, pathname, hidden) {
      const file = filePath(root, base, pathname, hidden);
      if (!file) return null;
      try {
        const real = await fsp.realpath(file);
        return inside(real) && small(await fsp.stat(real)) ? real : null;
      } catch {
        return null;
      }
    },
    findSync(base, pathname, hidden) {
      const file = filePath(root, base, pathname, hidden);
      if (!file) return null;
      try {
        const real = realpathSync(file);
        return inside(real) && small(statSync(real)) ? real : null;
      } catch {
        return null;
      }
    },
    read: (file) => fsp.readFile(file),
  };
}
