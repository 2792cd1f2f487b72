import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRoutes } from '../../../src/routes/table.js';
import { deathCause } from '../../../src/server/headless/page-process.js';
import { RENDER_LIVENESS_MS } from '../../liveness.js';

// pnpm's layout (and `npm link`, workspaces): the package's dependencies are symlinks beside it,
// to folders elsewhere. Node's resolver stats each link on its way to the real folder, so a page
// process allowed to read only the real folders could not load happy-dom: every render failed.
const root = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const dir = mkdtempSync(path.join(tmpdir(), 'cr-linked-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built package copied into a pnpm-style store folder, each dependency a symlink to its real folder. */
function linkedInstall(store = 'crawlable-router@0.1.0', dependencies = ['happy-dom', 'parse5', 'isbot', 'saxes']): string {
  const pkg = path.join(dir, '.pnpm', store, 'node_modules', 'crawlable-router');
  mkdirSync(pkg, { recursive: true });
  cpSync(path.join(root, 'dist'), path.join(pkg, 'dist'), { recursive: true });
  cpSync(path.join(root, 'package.json'), path.join(pkg, 'package.json'));
  for (const name of dependencies) symlinkSync(realpathSync(path.join(root, 'node_modules', name)), path.join(pkg, '..', name), 'dir');
  return pkg;
}

describe('headlessRenderer installed with symlinked dependencies (pnpm)', () => {
  it('renders the page: the page process may read the links as well as their real folders', async () => {
    const pkg = linkedInstall();
    const app = path.join(dir, 'app');
    mkdirSync(app);
    writeFileSync(
      path.join(app, 'index.html'),
      '<!DOCTYPE html><html><head><title>Linked</title></head><body><div id="app"><h1>drawn</h1></div></body></html>',
    );
    const server = (await import(
      pathToFileURL(path.join(pkg, 'dist/server/index.js')).href
    )) as typeof import('../../../src/server/index.js');
    const renderer = server.headlessRenderer({ root: app, timeoutMs: RENDER_LIVENESS_MS });
    const errors: string[] = [];
    const handler = server.createSnapshotHandler({
      timeoutMs: RENDER_LIVENESS_MS,
      routes: createRoutes([{ path: '/' }]),
      origin: 'https://example.com',
      renderer,
      onError: (error) => void errors.push(String(error)),
    });
    try {
      const snapshot = await handler.render('/');
      expect(errors).toEqual([]);
      expect([snapshot.status, snapshot.html.includes('<h1>drawn</h1>')]).toEqual([200, true]);
    } finally {
      await renderer.close();
    }
  });
});

describe('headlessRenderer installed without happy-dom (an optional peer)', () => {
  it('refuses to start, saying what to install, rather than failing every render', async () => {
    // page.js imported happy-dom statically, so child.js failed as it loaded, before it could name
    // the package; under the page process's flags Node printed only `{ code: 'ERR_MODULE_NOT_FOUND' }`,
    // as every render's failure.
    const pkg = linkedInstall('no-happy-dom', ['parse5', 'isbot', 'saxes']);
    const app = path.join(dir, 'app-no-happy-dom');
    mkdirSync(app);
    writeFileSync(path.join(app, 'index.html'), '<!DOCTYPE html><html><head><title>x</title></head><body></body></html>');
    const server = (await import(
      pathToFileURL(path.join(pkg, 'dist/server/index.js')).href
    )) as typeof import('../../../src/server/index.js');
    expect(() => server.headlessRenderer({ root: app, timeoutMs: RENDER_LIVENESS_MS, spares: 0 })).toThrow(
      expect.objectContaining({
        code: 'BAD_OPTION',
        message: 'headlessRenderer needs the optional peer dependency happy-dom: npm install happy-dom',
      }),
    );
  });
});

describe('deathCause', () => {
  it("names the error and the file the permission model refused, not Node's closing version line", () => {
    const stderr = [
      '(node:1) ExperimentalWarning: Permission is an experimental feature and might change at any time',
      '(Use `node --trace-warnings ...` to show where the warning was created)',
      'node:fs:2765',
      '        binding.stat(baseLong, false, undefined, true);',
      '                ^',
      '',
      'Error: Access to this API has been restricted',
      '    at realpathSync (node:fs:2765:17)',
      '    at finalizeResolution (node:internal/modules/esm/resolve:288:18) {',
      "  code: 'ERR_ACCESS_DENIED',",
      "  permission: 'FileSystemRead',",
      "  resource: '/srv/node_modules/.pnpm/x/node_modules/happy-dom'",
      '}',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    expect(deathCause(stderr)).toBe(
      "Error: Access to this API has been restricted (resource: '/srv/node_modules/.pnpm/x/node_modules/happy-dom')",
    );
    expect(deathCause('TypeError: x is not a function\n    at f (file:///a.js:1:1)\n\nNode.js v22.1.0\n')).toBe(
      'TypeError: x is not a function',
    );
    expect(deathCause('<--- Last few GCs --->\nFATAL ERROR: Reached heap limit JavaScript heap out of memory')).toBe(
      'JavaScript heap out of memory',
    );
    expect(deathCause('')).toBe('no reason given');
  });
});
