// The flags a page process (headless/child.ts) is started with: Node's permission model, allowing
// reads of this package's built code and of the packages the page process loads, and nothing else.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Packages the page process loads, with their dependencies. */
const PACKAGES = ['happy-dom', 'parse5'];

/**
 * The folder of an installed package, looked up the way Node does from `from`: where Node finds it
 * and its real path. They differ where the package is a symlink (pnpm's layout, `npm link`,
 * workspaces), and Node's resolver reads both: it stats the link on its way to the real path.
 */
function packageDir(name: string, from: string): { found: string; dir: string } | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return { found: candidate, dir: realpathSync(candidate) };
    if (path.dirname(dir) === dir) return null;
  }
}

/** What the page process may read: this package's built code and the packages it loads, with theirs. */
function readablePaths(here: string): string[] {
  const dist = path.resolve(here, '..', '..');
  const found = new Set<string>([dist, path.join(dist, '..', 'package.json')]);
  const todo = PACKAGES.map((name) => ({ name, from: dist }));
  for (let next = todo.pop(); next; next = todo.pop()) {
    const at = packageDir(next.name, next.from);
    if (!at) continue;
    const { dir } = at;
    const seen = found.has(dir);
    found.add(at.found).add(dir);
    if (seen) continue;
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const name of Object.keys(manifest.dependencies ?? {})) if (!name.startsWith('@types/')) todo.push({ name, from: dir });
  }
  return [...found];
}

/**
 * The flags a page process runs under: the permission model with reads of `entry`, this package's
 * built code and the packages it loads (nothing else: no write, no child process, worker or addon),
 * code generation from strings refused, intrinsics frozen, and the heap limit if one is given.
 */
export function pageProcessFlags(entry: string, memoryLimitMb?: number): string[] {
  const permission = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
  const here = fileURLToPath(new URL('.', import.meta.url));
  const readable = new Set([entry, ...readablePaths(here)]);
  return [
    permission,
    ...[...readable].map((p) => `--allow-fs-read=${p}`),
    '--disallow-code-generation-from-strings',
    // Nothing a page's script reaches in this realm can change Array.prototype or its kin.
    '--frozen-intrinsics',
    ...(memoryLimitMb ? [`--max-old-space-size=${memoryLimitMb}`] : []),
  ];
}
