// A snapshot store on disk, in the layout `prerender` writes (paths.ts): the handler serves
// prerendered snapshots from it first, and, when it renders a state itself, writes it there too.
// Writes are atomic (a temporary file renamed into place) so a reader never sees half a snapshot.

import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { AppLocation } from '../location.js';
import type { SnapshotStore, StoredSnapshot } from './cache.js';
import { etagOf } from './http.js';
import { resolveInside, snapshotLocation, snapshotPath } from './paths.js';

/** Writes a file atomically, creating its folder. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fsp.writeFile(temporary, text);
    await fsp.rename(temporary, file);
  } catch (error) {
    await fsp.rm(temporary, { force: true });
    throw error;
  }
}

/** The file of a key, or null when the key maps to no safe path. */
function fileOf(dir: string, key: AppLocation): string | null {
  try {
    return resolveInside(dir, snapshotPath(key));
  } catch {
    return null;
  }
}

async function* walk(dir: string, prefix: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), relative);
    else if (entry.isFile()) yield relative;
  }
}

/**
 * A store over a folder of snapshots (what `prerender` writes). A file's modification time is its
 * render time, so with the handler's `ttlMs` a prerendered snapshot is served until it is that old;
 * use `ttlMs: Infinity` to serve prerendered snapshots until `invalidate`. Only 200 snapshots are written.
 */
export function fileStore(dir: string): SnapshotStore {
  const root = path.resolve(dir);
  return {
    async get(key) {
      const file = fileOf(root, key);
      if (!file) return undefined;
      try {
        const [html, stat] = await Promise.all([fsp.readFile(file, 'utf8'), fsp.stat(file)]);
        return { status: 200, html, etag: etagOf(html), renderedAt: stat.mtimeMs } satisfies StoredSnapshot;
      } catch {
        return undefined;
      }
    },
    async set(key, snapshot) {
      const file = fileOf(root, key);
      if (!file || snapshot.status !== 200) return;
      await writeFileAtomic(file, snapshot.html);
      const time = new Date(snapshot.renderedAt);
      await fsp.utimes(file, time, time);
    },
    async delete(key) {
      const file = fileOf(root, key);
      if (file) await fsp.rm(file, { force: true });
    },
    async *keys() {
      for await (const relative of walk(root, '')) {
        const location = snapshotLocation(relative);
        if (location !== null) yield location;
      }
    },
  };
}
