import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout is the architecture (docs/architecture.md): imports point one way, and no module
// of src/ reaches itself through its imports.
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}
const files = sources('src');
const graph = new Map(
  files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)[^'"]*?from\s+'(\.{1,2}\/[^']+)\.js'/gm)].map((m) =>
      path.join(path.dirname(file), `${m[1]}.ts`),
    );
    return [file, targets];
  }),
);
const importsOf = (file: string) => graph.get(file) ?? [];

/** The modules `file` imports values from (not types alone), as a bundler reads them. */
const runtime = new Map(
  files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)(?! type )[^'"]*?from\s+'(\.{1,2}\/[^']+)\.js'/gm)].map((m) =>
      path.join(path.dirname(file), `${m[1]}.ts`),
    );
    return [file, targets];
  }),
);
/** Every module `file` reaches through its value imports, itself included. */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (!seen.has(file)) {
    seen.add(file);
    for (const next of runtime.get(file) ?? []) reach(next, seen);
  }
  return seen;
}

describe('the source layout', () => {
  it('keeps what the lite client leaves out beyond its imports: head tags, hydration, the history adapter', () => {
    const left = ['src/client/view.ts', 'src/client/head.ts', 'src/client/hydrate.ts', 'src/client/history.ts', 'src/contract/head.ts'];
    expect([...reach('src/client/lite.ts')].filter((f) => left.includes(f))).toEqual([]);
    // And the full client reaches each of them, so the list names real modules.
    expect(left.filter((f) => !reach('src/client/index.ts').has(f))).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      state.set(file, 'open');
      for (const next of importsOf(file)) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it.each([
    [
      'the core imports nothing from client/, server/, verify/, the CLI, vite/ or react/',
      (f: string) => /^src\/(url|routes|contract|env)\/|^src\/index\.ts$/.test(f),
      /^src\/(client|server|verify|cli|vite|react)\/|^src\/(index|umd)\.ts$/,
    ],
    ['env/ (build flags) imports nothing', (f: string) => f.startsWith('src/env/'), /^src\/(?!env\/)/],
    ['url/ imports only url/ and env/', (f: string) => f.startsWith('src/url/'), /^src\/(?!(url|env)\/)/],
    ['contract/ imports only contract/ and env/', (f: string) => f.startsWith('src/contract/'), /^src\/(?!(contract|env)\/)/],
    ['routes/ imports only the core', (f: string) => f.startsWith('src/routes/'), /^src\/(?!(routes|url|contract|env)\/)/],
    [
      'client/ never imports server/, verify/, vite/ or react/',
      (f: string) => f.startsWith('src/client/'),
      /^src\/(server|verify|cli|vite|react)\//,
    ],
    [
      'server/ never imports client/, verify/, vite/ or react/',
      (f: string) => f.startsWith('src/server/'),
      /^src\/(client|verify|cli|vite|react)\//,
    ],
    ['verify/ and the CLI never import vite/ or react/', (f: string) => /^src\/(verify|cli)\//.test(f), /^src\/(vite|react)\//],
    [
      // Vite's plugin uses the server through its public entry; with the CLI, urls.ts's option checks
      // and the routes module's rule (cli/routes-module.ts). Never client/: the plugin runs in Node.
      "vite/ imports only the core, the server's entry, option checks and folder manifest, and the routes module's rule",
      (f: string) => f.startsWith('src/vite/'),
      /^src\/(?!(url|routes|contract|env|vite)\/|index\.ts$|server\/(index|urls|files\/manifest)\.ts$|cli\/routes-module\.ts$)/,
    ],
    // The React binding: the browser's part over the client router and the core; its server entry
    // over the server's public entry, the core and the browser's part it renders (never mount.ts,
    // whose react-dom/client a server has no use for).
    [
      'react/ (but its server entry) imports only the core, client/ and react/',
      (f: string) => f.startsWith('src/react/') && f !== 'src/react/server.ts',
      /^src\/(server|verify|cli|vite)\/|^src\/(umd)\.ts$|^src\/react\/server\.ts$/,
    ],
    [
      "react/server.ts imports only the core, the server's public entry and react/binding.ts",
      (f: string) => f === 'src/react/server.ts',
      /^src\/(client|verify|cli|vite)\/|^src\/server\/(?!index\.ts$)|^src\/umd\.ts$|^src\/react\/(?!binding\.ts$)/,
    ],
  ])('%s', (_name, from, forbidden) => {
    const bad = files.filter(from).flatMap((f) =>
      importsOf(f)
        .filter((t) => forbidden.test(t))
        .map((t) => `${f} -> ${t}`),
    );
    expect(bad).toEqual([]);
  });
});
