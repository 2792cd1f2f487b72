// Files inside one folder (prerender's `outDir`, fileStore's folder) that no symlink inside it can
// send elsewhere: each parent is made one level at a time and its real path checked to stay
// inside the folder's real path before anything is written, read or removed there. A symlink
// that stays inside is followed; one that leaves is refused with `SnapshotError` UNSAFE_PATH.
// (Whoever can write into the folder meanwhile could still swap a checked folder for a symlink;
// the folder is the server's own, so that is not an attacker this guards against.)
//
// Each name is also checked to be the name on disk: on a case-insensitive file system (macOS,
// Windows) `books` opens a folder made as `Books`, and on Windows `BOOKS~1` opens a long name.
// `fs.promises.realpath` is the native one (libuv's: realpath(3) on macOS, GetFinalPathNameByHandle
// on Windows; unlike the callback `fs.realpath`, which gives names as asked): it gives the name as
// the disk holds it; one that differs and is not a symlink's own name is another
// state's, refused with `SnapshotError` PATH_COLLISION, so nothing is read or written through it.
// On Linux, names are exact (a case-folding ext4 folder or a mounted FAT/SMB share is not checked:
// realpath(3) there gives the name as asked).

import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { SnapshotError } from '../errors.js';
import { resolveInside } from './paths.js';

function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root + path.sep);
}

function refuse(relative: string, real: string): never {
  throw new SnapshotError(
    'UNSAFE_PATH',
    `${JSON.stringify(relative)} leads out of the folder through a symlink (to ${JSON.stringify(real)})`,
  );
}

function collides(relative: string, name: string, real: string): never {
  throw new SnapshotError(
    'PATH_COLLISION',
    `${JSON.stringify(relative)} names ${JSON.stringify(name)}, which the disk holds as ${JSON.stringify(path.basename(real))}: ` +
      "another state's name on a case-insensitive file system (macOS, Windows)",
  );
}

/** Checks that `name` in `folder` is the name the disk holds, whose real path is `real` (a symlink may lead elsewhere). */
async function checkName(relative: string, folder: string, name: string, real: string): Promise<void> {
  if (path.basename(real) === name) return;
  // A symlink's real path ends in its target's name: its own name must then be an entry as it is.
  const entries = await fsp.readdir(folder).catch(() => [] as string[]);
  if (!entries.includes(name)) collides(relative, name, real);
}

/**
 * The real path of `relative`'s parent under `root` (made when `create`, each folder it makes added
 * to `made`), or null when it does not exist; throws UNSAFE_PATH when it leaves `root`.
 */
async function realParent(
  root: string,
  relative: string,
  create: boolean,
  made: string[] = [],
): Promise<{ realRoot: string; parent: string } | null> {
  if (create) await fsp.mkdir(root, { recursive: true });
  let realRoot: string;
  try {
    realRoot = await fsp.realpath(root);
  } catch (error) {
    if (!create && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // The lexical check first: `..`, absolute parts and NUL never get as far as the disk.
  resolveInside(realRoot, relative);
  const folders = relative.split('/').slice(0, -1);
  let parent = realRoot;
  for (const name of folders) {
    const next = path.join(parent, name);
    if (create)
      await fsp.mkdir(next).then(
        () => void made.push(next),
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        },
      );
    let real: string;
    try {
      real = await fsp.realpath(next);
    } catch (error) {
      if (!create && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (!inside(realRoot, real)) refuse(relative, real);
    await checkName(relative, parent, name, real);
    parent = real;
  }
  return { realRoot, parent };
}

/** The real path of the file `relative` (`/`-separated) names under `root`, or null when its folder does not exist; throws UNSAFE_PATH when a symlink leads out. */
export async function fileInside(root: string, relative: string): Promise<string | null> {
  const found = await realParent(root, relative, false);
  if (!found) return null;
  return checkFile(found, relative);
}

/** The path of `relative`'s file in its checked parent: a symlink read through only when it stays inside, a name only as the disk holds it. */
async function checkFile(found: { realRoot: string; parent: string }, relative: string): Promise<string> {
  const name = path.basename(relative);
  const file = path.join(found.parent, name);
  const real = await fsp.realpath(file).catch(() => file);
  if (!inside(found.realRoot, real)) refuse(relative, real);
  await checkName(relative, found.parent, name, real);
  return file;
}

// How many times a write makes its folders again when one it found is removed meanwhile.
const WRITE_ATTEMPTS = 3;

/** Removes `folder` if it is empty (rmdir removes nothing else); true when it was removed. */
export function removeIfEmpty(folder: string): Promise<boolean> {
  return fsp.rmdir(folder).then(
    () => true,
    () => false,
  );
}

/**
 * Writes `text` to `relative` under `root` atomically (a temporary file renamed into place), making
 * its folders; never through a symlink that leads out. Returns the file's path. A write that fails
 * takes back the folders it made that are still empty: a path the disk cannot hold (a name or path
 * too long) leaves nothing behind, however many of them a crawler asks for.
 */
export async function writeInside(root: string, relative: string, text: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const made: string[] = [];
    try {
      return await writeMaking(root, relative, text, made);
    } catch (error) {
      // Deepest first: the first that is not empty (another write's now) ends it.
      for (const folder of made.reverse()) if (!(await removeIfEmpty(folder))) break;
      // A folder found there may be taken back (empty) by another write that failed, or by an
      // eviction, before this write made its own in it: made again, a few times at most.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === WRITE_ATTEMPTS) throw error;
    }
  }
}

async function writeMaking(root: string, relative: string, text: string, made: string[]): Promise<string> {
  const found = (await realParent(root, relative, true, made)) as { realRoot: string; parent: string };
  const name = path.basename(relative);
  // Another state's file under another spelling is never replaced (the symlink check is for reads:
  // a rename replaces a symlink at `file` itself, never what it points at).
  const file = await checkFile(found, relative).catch((error: unknown) => {
    if (error instanceof SnapshotError && error.code === 'PATH_COLLISION') throw error;
    return path.join(found.parent, name);
  });
  // Not named after the file: a name of 255 bytes, which the disk holds, would make it longer.
  const temporary = path.join(found.parent, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // `wx`: a name already there (a planted symlink) is never written through.
    await fsp.writeFile(temporary, text, { flag: 'wx' });
    await fsp.rename(temporary, file);
  } catch (error) {
    await fsp.rm(temporary, { force: true });
    throw error;
  }
  // Another process may have written the other spelling meanwhile, and a file system may keep the
  // old name over the new bytes: a file left under another state's name is removed.
  const real = await fsp.realpath(file).catch(() => file);
  if (path.basename(real) !== name && !(await fsp.readdir(found.parent)).includes(name)) {
    await fsp.rm(real, { force: true });
    collides(relative, name, real);
  }
  return file;
}
