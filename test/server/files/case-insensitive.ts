// A case-insensitive disk (macOS's APFS, Windows' NTFS) as far as a snapshot folder sees it, on
// Linux: a second spelling of a stored name is a hard link (a file) or a symlink (a folder) to it,
// so that opening it opens the stored one; the native realpath answers with the stored spelling, as
// realpath(3) on macOS and GetFinalPathNameByHandle on Windows do; and a folder's listing holds
// only the stored spelling. Undo with `vi.restoreAllMocks()`.
import fs, { type Dirent } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';

/** Makes `alias` (a path under `root`, `/`-separated) another spelling of `stored`. */
export function spellAlike(root: string, stored: string, alias: string): void {
  const from = path.join(root, ...stored.split('/'));
  const to = path.join(root, ...alias.split('/'));
  if (fs.statSync(from).isDirectory()) fs.symlinkSync(from, to);
  else fs.linkSync(from, to);
  aliases.set(to, from);
  if (aliases.size === 1) spy();
}

const aliases = new Map<string, string>();

function spy(): void {
  const realpath = fs.promises.realpath.bind(fs.promises) as (file: string) => Promise<string>;
  vi.spyOn(fs.promises, 'realpath').mockImplementation((async (file: string) => {
    let real = await realpath(file);
    for (const [alias, stored] of aliases)
      if (real === alias || real.startsWith(alias + path.sep)) real = stored + real.slice(alias.length);
    return real;
  }) as unknown as typeof fs.promises.realpath);
  const readdir = fs.promises.readdir.bind(fs.promises) as (dir: string, options?: unknown) => Promise<(string | Dirent)[]>;
  vi.spyOn(fs.promises, 'readdir').mockImplementation((async (dir: string, options?: unknown) =>
    (await readdir(dir, options)).filter(
      (entry) => !aliases.has(path.join(String(dir), typeof entry === 'string' ? entry : entry.name)),
    )) as unknown as typeof fs.promises.readdir);
}

/** Forgets every alias (the mocks are undone by `vi.restoreAllMocks()`). */
export function forgetSpellings(): void {
  aliases.clear();
}
