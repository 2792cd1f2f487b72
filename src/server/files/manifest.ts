// A folder of snapshots says which build they belong to, in a small file at its top: `prerender`
// writes it, `fileStore` reads it (and writes it into a folder it starts), and a handler of another
// build refuses the folder at start rather than serve pages that name another deploy's assets.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeInside } from './folder.js';

/** The manifest's name at the top of a folder of snapshots. */
export const MANIFEST = '.crawlable-router.json';

/**
 * The built shell `vite build` keeps beside the manifest of a folder it prerendered into, whose
 * index.html is then the home page's snapshot: `vite preview`, or a headless renderer of that
 * folder, serves it as the app's page.
 */
export const SHELL_FILE = '.crawlable-router.shell.html';

/** Whether a snapshot's file (`a/index.html`) would stand where the manifest goes. */
export const takesManifestName = (file: string): boolean => file.split('/', 1)[0]?.toLowerCase() === MANIFEST;

/** The build a folder's manifest names, or undefined where it has none (or one that does not read). */
export function readManifest(root: string): string | undefined {
  try {
    const { build } = JSON.parse(readFileSync(path.join(root, MANIFEST), 'utf8')) as { build?: unknown };
    return typeof build === 'string' ? build : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the manifest of `build` at the top of `root`. */
export async function writeManifest(root: string, build: string): Promise<void> {
  await writeInside(root, MANIFEST, JSON.stringify({ build }) + '\n');
}
