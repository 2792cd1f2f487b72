// Files inside one folder (prerender's `outDir`, fileStore's folder) that no symlink inside it can
// send elsewhere: each parent is made one level at a time and its real path checked to stay
// inside the folder's real path before anything is written, read or removed there. A symlink
// that stays inside is followed; one that leaves is refused with `SnapshotError` UNSAFE_PATH.
// (Whoever can write into the folder meanwhile could still swap a checked folder for a symlink;
// the folder is the server's own, so that is not an attacker this guards against.)

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

/** The real path of `relative`'s parent under `root` (made when `create`), or null when it does not exist; throws UNSAFE_PATH when it leaves `root`. */
async function realParent(root: string, relative: string, create: boolean): Promise<{ realRoot: string; parent: string } | null> {
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
      await fsp.mkdir(next).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    try {
      parent = await fsp.realpath(next);
    } catch (error) {
      if (!create && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (!inside(realRoot, parent)) refuse(relative, parent);
  }
  return { realRoot, parent };
}

/** The real path of the file `relative` (`/`-separated) names under `root`, or null when its folder does not exist; throws UNSAFE_PATH when a symlink leads out. */
export async function fileInside(root: string, relative: string): Promise<string | null> {
  const found = await realParent(root, relative, false);
  if (!found) return null;
  const file = path.join(found.parent, path.basename(relative));
  // The file itself may be a symlink too: read through it only when it stays inside.
  const real = await fsp.realpath(file).catch(() => file);
  if (!inside(found.realRoot, real)) refuse(relative, real);
  return file;
}

/** Writes `text` to `relative` under `root` atomically (a temporary file renamed into place), making its folders; never through a symlink that leads out. Returns the file's path. */
export async function writeInside(root: string, relative: string, text: string): Promise<string> {
  const found = await realParent(root, relative, true);
  const parent = (found as { parent: string }).parent;
  const name = path.basename(relative);
  const file = path.join(parent, name);
  const temporary = path.join(parent, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // `wx`: a name already there (a planted symlink) is never written through.
    await fsp.writeFile(temporary, text, { flag: 'wx' });
    // A rename replaces a symlink at `file` itself, never what it points at.
    await fsp.rename(temporary, file);
  } catch (error) {
    await fsp.rm(temporary, { force: true });
    throw error;
  }
  return file;
}
