// A snapshot store on disk, in the layout `prerender` writes (files/paths.ts): the handler serves
// prerendered snapshots from it first, and, when it renders a state itself, writes it there too.
// Writes are atomic (a temporary file renamed into place) so a reader never sees half a snapshot,
// and never go through a symlink that leads out of the folder (files/folder.ts). The store is bounded
// by entries and bytes, oldest snapshot first, so that states a crawler (or anyone) invents cannot
// fill the disk: with `ttlMs: Infinity` nothing else would ever remove them.
//
// A snapshot is only ever served for its own state. A state whose file collides with a kept
// state's on a case-insensitive file system (`?q=Foo` kept, `?q=foo` asked; files/collisions.ts)
// is rendered and served but never written, on every platform alike. Processes of a fleet that
// share the folder do not see each other's claims: there `get` and `set` rely on the name check of
// files/folder.ts, which refuses a file or folder the disk holds under another spelling (a miss for
// `get`, nothing written for `set`).

import { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import type { AppLocation } from '../../url/location.js';
import type { SnapshotStore, StoredSnapshot } from './store.js';
import { optionsOf, positiveOption, SnapshotError } from '../errors.js';
import { createFileClaims } from '../files/collisions.js';
import { fileInside, removeIfEmpty, writeInside } from '../files/folder.js';
import { etagOf } from '../http/respond.js';
import { readManifest, takesManifestName, writeManifest } from '../files/manifest.js';
import { snapshotLocation, snapshotPath } from '../files/paths.js';

/** Options of `fileStore`. */
export interface FileStoreOptions {
  /** Most snapshots kept; past it the oldest (by render time) are removed. Default 10000. */
  maxEntries?: number | undefined;
  /** Most bytes of snapshots kept; past it the oldest are removed, and a larger one is not kept. Default 256 MiB. */
  maxBytes?: number | undefined;
  /** Which states are written: one it refuses is rendered but never kept. Default: every state. */
  keep?: ((location: AppLocation) => boolean) | undefined;
}

/** The relative file of a key, or null when the key maps to no safe path. */
function fileOf(key: AppLocation): string | null {
  try {
    return snapshotPath(key);
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
  // Symlinks are neither files nor folders here: a walk never leaves the folder through one.
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), relative);
    else if (entry.isFile()) yield relative;
  }
}

/**
 * A store over a folder of snapshots (what `prerender` writes). A file's modification time is its
 * render time, so with the handler's `ttlMs` a prerendered snapshot is served until it is that old;
 * use `ttlMs: Infinity` to serve prerendered snapshots until `invalidate`. Only 200 snapshots are
 * written; at most `maxEntries` and `maxBytes` are kept, the oldest removed first (with the
 * folders they leave empty).
 */
export function fileStore(dir: string, options: FileStoreOptions = {}): SnapshotStore {
  if (typeof dir !== 'string' || dir === '')
    throw new SnapshotError('BAD_OPTION', `fileStore(dir) takes the folder's path, got ${dir === '' ? 'an empty string' : typeof dir}`);
  optionsOf(options, 'fileStore(dir, options)', '{ maxEntries, maxBytes, keep }');
  const root = path.resolve(dir);
  const maxEntries = positiveOption(options.maxEntries, 10_000, 'fileStore maxEntries');
  const maxBytes = positiveOption(options.maxBytes, 256 * 2 ** 20, 'fileStore maxBytes');
  const keep = options.keep ?? (() => true);
  // The build the folder's snapshots belong to (its manifest's): stamped on each one read, so a
  // handler of another build never serves them. A folder with none yet takes the build of its first write.
  let build = readManifest(root);
  // What the folder holds, oldest first: read from the disk once, then kept up to date.
  let index: Promise<Map<AppLocation, number>> | null = null;
  let bytes = 0;
  // The files of the kept states, so that no state is written over another's name.
  const claims = createFileClaims();
  // Which file each state's last read came from (a write renames a new file into place, so a new
  // write is another inode), so that `holds` answers with a stat, not a read and hash of the file.
  const read = new Map<AppLocation, { ino: number; size: number; mtimeMs: number; etag: string }>();

  const load = () =>
    (index ??= (async () => {
      const found: { key: AppLocation; size: number; time: number }[] = [];
      for await (const relative of walk(root, '')) {
        const key = snapshotLocation(relative);
        if (key === null) continue;
        const stat = await fsp.stat(path.join(root, ...relative.split('/'))).catch(() => null);
        if (stat) found.push({ key, size: stat.size, time: stat.mtimeMs });
      }
      found.sort((a, b) => a.time - b.time);
      const map = new Map<AppLocation, number>();
      for (const { key, size } of found) {
        map.set(key, size);
        bytes += size;
        // Two spellings already on a case-sensitive disk are both kept (and served: each is its own file).
        claims.claim(key, snapshotPath(key));
      }
      return map;
    })());

  /** Removes a snapshot's file and the folders it leaves empty. */
  async function remove(relative: string): Promise<void> {
    let file: string | null;
    try {
      file = await fileInside(root, relative);
    } catch {
      return;
    }
    if (!file) return;
    await fsp.rm(file, { force: true });
    // The first folder that is not empty ends the climb.
    for (let folder = path.dirname(file); folder.startsWith(root + path.sep); folder = path.dirname(folder))
      if (!(await removeIfEmpty(folder))) break;
  }

  function forget(map: Map<AppLocation, number>, key: AppLocation): void {
    const size = map.get(key);
    if (size === undefined) return;
    map.delete(key);
    bytes -= size;
    claims.release(snapshotPath(key));
  }

  /** Whether `error` is the name check refusing another state's spelling on disk. */
  const collision = (error: unknown) => error instanceof SnapshotError && error.code === 'PATH_COLLISION';

  return {
    async get(key) {
      const relative = fileOf(key);
      if (!relative) return undefined;
      try {
        const file = await fileInside(root, relative);
        if (!file) return undefined;
        // One open file, so that its stat is the stat of the very bytes read.
        const handle = await fsp.open(file);
        let html: string, stat: Stats;
        try {
          [html, stat] = await Promise.all([handle.readFile('utf8'), handle.stat()]);
        } finally {
          await handle.close();
        }
        const etag = etagOf(html);
        read.delete(key);
        // As many as the store keeps, the oldest read forgotten first.
        if (read.size >= maxEntries) read.delete(read.keys().next().value as AppLocation);
        read.set(key, { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, etag });
        return { status: 200, html, etag, renderedAt: stat.mtimeMs, build } satisfies StoredSnapshot;
      } catch {
        return undefined;
      }
    },
    async holds(key, snapshot) {
      const last = read.get(key);
      const relative = fileOf(key);
      if (!last || !relative || last.etag !== snapshot.etag || last.mtimeMs !== snapshot.renderedAt) return false;
      try {
        const file = await fileInside(root, relative);
        const stat = file && (await fsp.stat(file));
        return !!stat && stat.ino === last.ino && stat.size === last.size && stat.mtimeMs === last.mtimeMs;
      } catch {
        return false;
      }
    },
    async set(key, snapshot) {
      const relative = fileOf(key);
      if (!relative || snapshot.status !== 200 || !keep(key) || takesManifestName(relative)) return;
      const size = Buffer.byteLength(snapshot.html);
      if (size > maxBytes) return;
      const map = await load();
      // A folder holds one build's snapshots. One that holds snapshots and names no build (written
      // before builds) is written no more: its pages' build is unknown, so none of them is served.
      if (build === undefined && map.size === 0 && snapshot.build !== undefined) await writeManifest(root, (build = snapshot.build));
      if (snapshot.build !== build) return;
      // Claimed before the write, so that two spellings written at once are not both written.
      if (claims.claim(key, relative)) return;
      let file: string;
      try {
        file = await writeInside(root, relative, snapshot.html);
      } catch (error) {
        if (!map.has(key)) claims.release(relative);
        // Another process's state holds the name: it keeps it, as a claim here would. A path the
        // disk cannot hold (past PATH_MAX) is a state with no file, as one with no safe path: no
        // store outage, which a crawler would otherwise start once a request.
        if (collision(error) || (error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return;
        throw error;
      }
      const time = new Date(snapshot.renderedAt);
      await fsp.utimes(file, time, time);
      forget(map, key);
      map.set(key, size);
      bytes += size;
      claims.claim(key, relative);
      const doomed: AppLocation[] = [];
      for (const oldest of map.keys()) {
        if (map.size <= maxEntries && bytes <= maxBytes) break;
        if (oldest === key) continue;
        forget(map, oldest);
        doomed.push(oldest);
      }
      for (const victim of doomed) await remove(snapshotPath(victim));
    },
    async delete(key) {
      read.delete(key);
      const relative = fileOf(key);
      if (!relative) return;
      forget(await load(), key);
      await remove(relative);
    },
    get build() {
      return build;
    },
    async *keys() {
      for await (const relative of walk(root, '')) {
        const location = snapshotLocation(relative);
        if (location !== null) yield location;
      }
    },
  };
}
