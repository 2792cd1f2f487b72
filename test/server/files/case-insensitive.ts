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
  const realpathNative = fs.realpath.native;
  vi.spyOn(fs.realpath, 'native').mockImplementation(((file: string, callback: (error: Error | null, real: string) => void) =>
    realpathNative(file, (error, real) => {
      let named = real;
      for (const [alias, stored] of aliases)
        if (named === alias || named.startsWith(alias + path.sep)) named = stored + named.slice(alias.length);
      callback(error, named);
    })) as unknown as typeof fs.realpath.native);
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
