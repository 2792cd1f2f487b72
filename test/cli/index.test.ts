import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, run } from '../../src/cli/index.js';
import { jsonReport } from '../../src/cli/common.js';
import { parseXml } from '../server/xml.js';
import { listen } from '../server/helpers.js';
import { startSite } from '../verify/site.js';

const BIN = path.resolve('bin/crawlable-router.js');
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
/** The --timeout of the run with a stuck state: it must pass for the healthy ones at load 20 on two cores (liveness). */
const STUCK_AFTER_MS = 20_000;
const CORE = pathToFileURL(path.resolve('dist/index.js')).href;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-'));
  // A table from the built package, as an app would write it.
  writeFileSync(
    path.join(dir, 'routes.mjs'),
    `import { createRoutes } from ${JSON.stringify(CORE)};
export const shell = '<!DOCTYPE html><html><head><title>App</title></head><body><main id="view"></main></body></html>';
export default createRoutes([
  { path: '/', title: 'Home', render: () => '<h1>Home</h1>' },
  { path: '/books/:id', title: ({ params }) => 'Book ' + params.id, entries: () => [{ id: '1' }, { id: '2' }], render: ({ params }) => '<h1>' + params.id + '</h1>' },
], { base: '/app/' });`,
  );
  // An array of routes with no imports, one of which fails.
  writeFileSync(
    path.join(dir, 'array.mjs'),
    `export default [{ path: '/ok', render: () => 'ok' }, { path: '/bad', render: () => { throw new Error('db down'); } }];`,
  );
  writeFileSync(path.join(dir, 'none.mjs'), `export const appRoutes = 1;`);
  // The classic-script recipe's shared file: a function of the library, which Node reads as CommonJS.
  writeFileSync(path.join(dir, 'maker.cjs'), `module.exports = function (CR) { return CR.createRoutes([{ path: '/' }]); };`);
  // A client-rendered app in its own folder: the one shell, loading `main`.
  const clientApp = (name: string, main: string) => {
    mkdirSync(path.join(dir, name));
    writeFileSync(
      path.join(dir, name, 'index.html'),
      '<!DOCTYPE html><html><head><title>App</title><script type="module" src="/main.js"></script></head><body><div id="app"></div></body></html>',
    );
    writeFileSync(path.join(dir, name, 'main.js'), main);
  };
  // A client-rendered app for --headless, and a table with no render hooks.
  clientApp(
    'app',
    `document.title = 'At ' + location.pathname; document.getElementById('app').innerHTML = '<p>drawn by the client for ' + location.pathname + '</p>';`,
  );
  // The same app, stuck for ever in a script on /books/8. Like `while (true) {}`, Atomics.wait never
  // returns to the event loop; unlike it, it holds no core through the long --timeout the test gives.
  clientApp(
    'stuck',
    `if (location.pathname === '/books/8') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); document.getElementById('app').textContent = 'drawn ' + location.pathname;`,
  );
  writeFileSync(
    path.join(dir, 'stuck.mjs'),
    `export default [{ path: '/' }, { path: '/books/:id', entries: () => [{ id: '7' }, { id: '8' }] }];`,
  );
  // A client-rendered app whose data comes from its API, for --upstream.
  clientApp(
    'api-app',
    `const r = await fetch('/api' + location.pathname); document.getElementById('app').textContent = r.status + ' ' + (await r.text());`,
  );
  // The same, failing its state when the API does not answer 200 (as an app's load does).
  clientApp('strict-api-app', `const r = await fetch('/api' + location.pathname); if (!r.ok) throw new Error('the API said ' + r.status);`);
  writeFileSync(path.join(dir, 'bare.mjs'), `export default [{ path: '/' }, { path: '/books/:id', entries: () => [{ id: '7' }] }];`);
  writeFileSync(path.join(dir, 'broken.mjs'), `export default [;`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the real bin in a child process. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** Runs `run()` in this process, capturing its output. */
async function inProcess(args: string[], isTTY = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, {
    stdout: { write: (t: string) => out.push(t) },
    stderr: { isTTY, write: (t: string) => err.push(t) },
    cwd: dir,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('crawlable-router prerender (child process)', () => {
  it('says how to load a routes module written in TypeScript, which Node 20 does not run', async () => {
    writeFileSync(path.join(dir, 'typed.ts'), `export default [{ path: '/' as string }];`);
    const result = await cli(['prerender', '--routes', 'typed.ts', '--out', 'out-typed', '--origin', 'https://example.com']);
    expect(result.code).toBe(EXIT.SETUP);
    expect(result.stderr).toContain('Unknown file extension ".ts"');
    expect(result.stderr).toContain(
      "Node runs no TypeScript here: give the compiled .js, or run the command with a loader: NODE_OPTIONS='--import tsx'",
    );
  });

  it('writes every state, the sitemap and a JSON report, and exits 0', async () => {
    const out = path.join(dir, 'out-ok');
    const result = await cli([
      'prerender',
      '--routes',
      'routes.mjs',
      '--out',
      'out-ok',
      '--origin',
      'https://example.com',
      '--mode',
      'hashbang',
      '--outlet',
      '#view',
      '--json',
    ]);
    expect(result.code).toBe(EXIT.OK);
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: 3,
      written: 3,
      failed: 0,
      files: ['index.html', 'books/1/index.html', 'books/2/index.html'],
      sitemaps: ['sitemap.xml'],
    });
    expect(result.stderr).toMatch(/^\[1\/3\] ok \//m);
    const book = readFileSync(path.join(out, 'books/2/index.html'), 'utf8');
    expect(book).toContain('<title data-router-title="App">Book 2</title>');
    expect(book).toContain('<main id="view"><h1>2</h1></main>');
    // A hashbang app's crawlers are told clean URLs (--clean-urls bots, the default): they drop the fragment.
    expect(book).toContain('<link rel="canonical" href="https://example.com/app/books/2" data-router-head="/books/2">');
    const urls = parseXml(readFileSync(path.join(out, 'sitemap.xml'), 'utf8')).children.map((u) => u.children[0]?.text);
    expect(urls).toEqual(['https://example.com/app/', 'https://example.com/app/books/1', 'https://example.com/app/books/2']);
  });

  it('renders the real app with --headless', async () => {
    const result = await cli([
      'prerender',
      '--routes',
      'bare.mjs',
      '--out',
      'out-headless',
      '--origin',
      'https://example.com',
      '--headless',
      'app',
    ]);
    expect(result.code).toBe(EXIT.OK);
    const book = readFileSync(path.join(dir, 'out-headless/books/7/index.html'), 'utf8');
    expect(book).toContain('<title data-router-title="App">At /books/7</title>');
    expect(book).toContain('<p>drawn by the client for /books/7</p>');
    expect(book).toContain('<link rel="canonical" href="https://example.com/books/7" data-router-head="/books/7">');
  });

  it("sends the page's API calls to --upstream with --headless (without it they get 404)", async () => {
    const api = await listen((req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`from the API for ${req.url}`));
    try {
      const args = ['prerender', '--routes', 'bare.mjs', '--origin', 'https://example.com', '--headless', 'api-app', '--no-sitemap'];
      const result = await cli([...args, '--out', 'out-upstream', '--upstream', api.base]);
      expect(result.code).toBe(EXIT.OK);
      expect(readFileSync(path.join(dir, 'out-upstream/books/7/index.html'), 'utf8')).toContain('200 from the API for /api/books/7');
      expect((await cli([...args, '--out', 'out-no-upstream'])).code).toBe(EXIT.OK);
      expect(readFileSync(path.join(dir, 'out-no-upstream/books/7/index.html'), 'utf8')).toContain('<div id="app">404 ');
    } finally {
      await api.close();
    }
  });

  it("says, when states fail with --headless and no --upstream, that the page's API requests got 404 and --upstream sends them on", async () => {
    const args = ['prerender', '--routes', 'bare.mjs', '--origin', 'https://example.com', '--headless', 'strict-api-app', '--no-sitemap'];
    const result = await cli([...args, '--out', 'out-strict']);
    expect(result.code).toBe(EXIT.FAILURES);
    expect(result.stderr).toMatch(/FAILED \/books\/7: .*the API said 404/);
    expect(result.stderr).toContain(
      "with --headless and no --upstream, the page's requests for what strict-api-app does not hold (its API) are answered 404: pass --upstream URL, the origin of the app's API",
    );
    // Not said where it does not apply: a run with --upstream, or one where every state was written.
    expect(
      (await cli(['prerender', '--routes', 'bare.mjs', '--origin', 'https://example.com', '--headless', 'app', '--out', 'out-fine']))
        .stderr,
    ).not.toContain('--upstream');
  });

  it('fails only the state whose script never yields with --isolate, and finishes the run', async () => {
    // One state at a time, with time for a fresh page process to load happy-dom on a busy machine:
    // about a second of CPU, and 4 s were too few at load 10 on two cores (/books/7 failed too).
    const result = await cli([
      'prerender',
      '--routes',
      'stuck.mjs',
      '--out',
      'out-stuck',
      '--origin',
      'https://example.com',
      '--headless',
      'stuck',
      '--isolate',
      '--timeout',
      String(STUCK_AFTER_MS),
      '--concurrency',
      '1',
      '--no-sitemap',
    ]);
    expect(result.stderr).toMatch(new RegExp(`FAILED /books/8: rendering /books/8 took longer than ${STUCK_AFTER_MS} ms`));
    expect(result.code).toBe(EXIT.FAILURES);
    expect(readFileSync(path.join(dir, 'out-stuck/books/7/index.html'), 'utf8')).toContain('drawn /books/7');
    expect(existsSync(path.join(dir, 'out-stuck/books/8/index.html'))).toBe(false);
  });

  it.each(['--isolate', '--upstream=http://127.0.0.1:1'])('exits 2 for %s without --headless', async (option) => {
    expect((await inProcess(['prerender', '--routes', 'routes.mjs', '--out', 'x', '--origin', 'https://example.com', option])).code).toBe(
      EXIT.USAGE,
    );
  });

  it('exits 1 and names the failures when some states fail', async () => {
    const result = await cli([
      'prerender',
      '--routes',
      'array.mjs',
      '--out',
      'out-fail',
      '--origin',
      'https://example.com',
      '--no-sitemap',
      '--concurrency',
      '1',
    ]);
    expect(result.code).toBe(EXIT.FAILURES);
    expect(result.stderr).toContain('[2/2] FAILED /bad: rendering /bad failed: db down');
    expect(result.stderr).toContain('prerendered 1 of 2 states');
    expect(existsSync(path.join(dir, 'out-fail/ok/index.html'))).toBe(true);
    expect(existsSync(path.join(dir, 'out-fail/sitemap.xml'))).toBe(false);
  });

  it('exits 2 with a clear message for a bad argument', async () => {
    const result = await cli([
      'prerender',
      '--routes',
      'routes.mjs',
      '--out',
      'x',
      '--origin',
      'https://example.com',
      '--concurrency',
      'many',
    ]);
    expect(result).toMatchObject({ code: EXIT.USAGE, stdout: '' });
    expect(result.stderr).toBe(
      `crawlable-router prerender: --concurrency must be a whole number above 0, got "many"\nRun 'crawlable-router prerender --help' for usage.\n`,
    );
  });

  it('splits a run with --shard K/N, and the sitemap command writes the sitemap of the gathered folder', async () => {
    // --clean-urls shell: a hashbang app that speaks the scheme alone names its #! URLs.
    const args = [
      '--routes',
      'routes.mjs',
      '--out',
      'out-shards',
      '--origin',
      'https://example.com',
      '--mode',
      'hashbang',
      '--clean-urls',
      'shell',
    ];
    const one = await inProcess(['prerender', ...args, '--outlet', '#view', '--shard', '1/2', '--json']);
    const two = await inProcess(['prerender', ...args, '--outlet', '#view', '--shard', '2/2', '--json']);
    expect([one.code, two.code]).toEqual([EXIT.OK, EXIT.OK]);
    const files = [...JSON.parse(one.stdout).files, ...JSON.parse(two.stdout).files];
    expect(files.sort()).toEqual(['books/1/index.html', 'books/2/index.html', 'index.html']);
    expect(one.stderr).toContain('(shard 1/2; no sitemap');
    // The CLI user is told of the command, not only of the API's option (before: "write it with sitemapOnly").
    expect(one.stderr).toContain('write it with the sitemap command or sitemapOnly');
    expect(existsSync(path.join(dir, 'out-shards/sitemap.xml'))).toBe(false);
    const step = await inProcess(['sitemap', ...args]);
    expect(step).toMatchObject({ code: EXIT.OK, stdout: '' });
    expect(step.stderr).toContain('wrote the sitemap of 3 of 3 states');
    expect(readFileSync(path.join(dir, 'out-shards/sitemap.xml'), 'utf8')).toContain('<loc>https://example.com/app/#!/books/1</loc>');
    await cli(['prerender', ...args.slice(0, 3), 'out-whole', ...args.slice(4), '--outlet', '#view']);
    for (const file of [...files, 'sitemap.xml', '404.html'])
      expect(readFileSync(path.join(dir, 'out-shards', file), 'utf8')).toBe(readFileSync(path.join(dir, 'out-whole', file), 'utf8'));
  });

  it('writes 404.html for a static host unless --no-404', async () => {
    const args = ['prerender', '--routes', 'routes.mjs', '--origin', 'https://example.com', '--outlet', '#view', '--json'];
    const written = await inProcess([...args, '--out', 'out-404']);
    expect([written.code, JSON.parse(written.stdout).notFoundPage]).toEqual([EXIT.OK, { file: '404.html' }]);
    expect(readFileSync(path.join(dir, 'out-404/404.html'), 'utf8')).toContain('<title');
    const none = await inProcess([...args, '--out', 'out-no-404', '--no-404']);
    expect([none.code, JSON.parse(none.stdout).notFoundPage, existsSync(path.join(dir, 'out-no-404/404.html'))]).toEqual([
      EXIT.OK,
      null,
      false,
    ]);
  });

  it('exits 3 from the sitemap command when the gathered folder is not there, and writes nothing', async () => {
    const result = await inProcess(['sitemap', '--routes', 'routes.mjs', '--out', 'not-gathered', '--origin', 'https://example.com']);
    expect(result).toMatchObject({ code: EXIT.SETUP, stdout: '' });
    expect(result.stderr).toBe(
      `crawlable-router sitemap: outDir ${path.join(dir, 'not-gathered')} is not a folder: sitemapOnly (the sitemap command) lists the snapshots prerender wrote there; sitemap() writes one from locations alone\n`,
    );
    expect(existsSync(path.join(dir, 'not-gathered'))).toBe(false);
  });

  it.each(['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3'])('exits 2 for --shard %s', async (shard) => {
    const result = await inProcess([
      'prerender',
      '--routes',
      'routes.mjs',
      '--out',
      'x',
      '--origin',
      'https://example.com',
      '--shard',
      shard,
    ]);
    expect(result.code).toBe(EXIT.USAGE);
    expect(result.stderr).toContain(`--shard must be K/N with 1 <= K <= N, such as 2/4; got "${shard}"`);
  });

  it('prints the version of the installed package on --version, from the real bin', async () => {
    expect(await cli(['--version'])).toEqual({ code: EXIT.OK, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('prints help on --help and exits 0', async () => {
    const result = await cli(['prerender', '--help']);
    expect(result.code).toBe(EXIT.OK);
    expect(result.stdout).toContain('Usage: crawlable-router prerender --routes FILE --out DIR --origin URL');
    expect(result.stdout).toContain('Exit codes: 0 all states written or skipped as redirects, 1 some states failed, 2 bad arguments,');
    expect(result.stdout).toContain('one that redirects is SKIPPED');
    // As docs/cli.md says: every page has a page process of its own, with or without --isolate.
    expect(result.stdout).toContain('--isolate            accepted with --headless, and changes nothing');
  });

  it.each([
    [['sitemap', '-h', '--origin', 'https://example.com'], 'Usage: crawlable-router sitemap --routes FILE --out DIR --origin URL'],
    [['verify', 'http://a.test', '-h'], 'Usage: crawlable-router verify'],
  ])('prints the help on -h, whatever else is given, and exits 0: %j', async (args, usage) => {
    const result = await cli(args);
    expect(result.code).toBe(EXIT.OK);
    expect(result.stdout).toContain(usage);
    expect(result.stderr).toBe('');
  });
});

describe('jsonReport', () => {
  it('writes DEL and C1 as \\u escapes, which JSON writes raw, and parses back to the same report', () => {
    const report = { title: 'a\x9b2Jb\x7f', ok: 'café ✓' };
    const text = jsonReport(report);
    expect(text).not.toMatch(/[\x7f-\x9f]/);
    expect(text).toContain('a\\u009b2Jb\\u007f');
    expect(JSON.parse(text)).toEqual(report);
  });
});

describe('run', () => {
  it.each([
    [['prerender', '--out', 'x', '--origin', 'https://example.com'], '--routes is required'],
    [['prerender', '--routes', 'r.mjs', '--origin', 'https://example.com'], '--out is required'],
    [['prerender', '--routes', 'r.mjs', '--out', 'x'], '--origin is required'],
    [['prerender', '--routes', 'r.mjs', '--out', 'x', '--origin', 'example.com'], '--origin must be an http(s) origin'],
    [['prerender', '--routes', 'r.mjs', '--out', 'x', '--origin', 'https://example.com/app'], '--origin must be an http(s) origin'],
    [
      ['prerender', '--routes', 'r.mjs', '--out', 'x', '--origin', 'https://example.com', '--mode', 'auto'],
      '--mode must be "history" or "hashbang", got "auto"',
    ],
    [
      ['prerender', '--routes', 'r.mjs', '--out', 'x', '--origin', 'https://example.com', '--clean-urls', 'bot'],
      `--clean-urls must be 'bots', 'all' or 'shell', got "bot"`,
    ],
    [
      ['prerender', '--routes', 'r.mjs', '--out', 'x', '--origin', 'https://example.com', '--timeout', '0'],
      '--timeout must be a whole number above 0, got "0"',
    ],
    [['prerender', '--routes', 'r.mjs', '--out', 'x', '--origin', 'https://example.com', '--bogus'], "Unknown option '--bogus'"],
    [['prerender', '--routes'], "Option '--routes <value>' argument missing"],
    [['prerender', 'extra'], "Unexpected argument 'extra'"],
  ])('exits 2 for %j: %s', async (args, message) => {
    const result = await inProcess(args);
    expect(result.code).toBe(EXIT.USAGE);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("Run 'crawlable-router prerender --help' for usage.");
  });

  it.each([
    ['a missing module', 'missing.mjs', 'cannot load the routes module'],
    ['a module that does not parse', 'broken.mjs', 'cannot load the routes module'],
    ['a module with no table', 'none.mjs', 'exports no route table as its default or `routes` export (it exports appRoutes)'],
    [
      'a function that makes the table',
      'maker.cjs',
      'exports a function, not a route table, as its default or `routes` export: give a module that calls it',
    ],
  ])('exits 3 for %s', async (_, file, message) => {
    const result = await inProcess(['prerender', '--routes', file, '--out', 'x', '--origin', 'https://example.com']);
    expect(result.code).toBe(EXIT.SETUP);
    expect(result.stderr).toContain(message);
  });

  it.each([
    [['--shell', 'nope.html'], 'cannot read the shell'],
    [['--outlet', '#missing'], 'no element matches the outlet selector "#missing"'],
    [['--base', '/other/'], `base "/other/" is not the route table's base "/app/"`],
    [['--headless', 'no-such-app'], "root must be the app's folder"],
  ])('exits 3 when %j cannot be used', async (extra, message) => {
    const result = await inProcess(['prerender', '--routes', 'routes.mjs', '--out', 'x', '--origin', 'https://example.com', ...extra]);
    expect(result.code).toBe(EXIT.SETUP);
    expect(result.stderr).toContain(message);
  });

  it('exits 3 when the output folder cannot be written', async () => {
    writeFileSync(path.join(dir, 'a-file'), 'x');
    const result = await inProcess([
      'prerender',
      '--routes',
      'routes.mjs',
      '--out',
      'a-file/out',
      '--origin',
      'https://example.com',
      '--outlet',
      '#view',
    ]);
    expect(result.code).toBe(EXIT.SETUP);
    expect(result.stderr).toContain('cannot write a-file/out');
  });

  it.each([
    [[], EXIT.USAGE, 'stderr', 'Usage: crawlable-router <command>'],
    [['--help'], EXIT.OK, 'stdout', 'prerender    render every state to files'],
    [['help', 'prerender'], EXIT.OK, 'stdout', 'Usage: crawlable-router prerender'],
    [['--help'], EXIT.OK, 'stdout', "verify       crawl a site as the scheme's crawler does"],
    [['help', 'verify'], EXIT.OK, 'stdout', 'Usage: crawlable-router verify URL'],
    [['--version'], EXIT.OK, 'stdout', `${VERSION}\n`],
    [['-v'], EXIT.OK, 'stdout', `${VERSION}\n`],
    [['--help'], EXIT.OK, 'stdout', "'crawlable-router --version' for the version"],
    [['seo'], EXIT.USAGE, 'stderr', 'unknown command "seo"'],
    [['__proto__'], EXIT.USAGE, 'stderr', 'unknown command "__proto__"'],
  ] as const)('answers %j with exit %i', async (args, code, stream, text) => {
    const result = await inProcess([...args]);
    expect(result.code).toBe(code);
    expect(result[stream]).toContain(text);
  });
});

describe('crawlable-router verify', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site.close());

  it('prints a table and a summary, shows progress on a terminal, and exits 1 when it finds problems', async () => {
    const result = await inProcess(['verify', `${site.origin}/`], true);
    expect(result.code).toBe(EXIT.FAILURES);
    expect(result.stdout).toMatch(/^status\s+kind\s+bytes\s+text\s+problems\s+state/);
    expect(result.stdout).toContain('UGLY_CANONICAL  the canonical link of');
    expect(result.stdout).toContain('13 states crawled (6 × 200, 1 × 301, 1 × 302, 3 × 404, 2 × 500), sitemap');
    // 15 faults of the scheme (two of them sitemap entries that are no 200, four #! URLs given as a
    // page's address: a canonical link and three sitemap entries), and 13 of how today's bots see the
    // fixture's clean URLs (a scheme-only site serves none of its #! states there).
    expect(result.stdout).toContain('EMPTY_FOR_BOTS  a bot that runs no JavaScript gets no <meta name="description"> at');
    expect(result.stdout).toContain('SITEMAP_NOT_200  the sitemap');
    expect(result.stdout).toContain('FRAGMENT_URL  the canonical link of');
    expect(result.stdout.trimEnd().endsWith('28 problems')).toBe(true);
    expect(result.stderr).toContain('\r\x1b[2K[13/13]');
  });

  it('draws no progress bar when stderr is not a terminal (a log file gets no \\r lines)', async () => {
    const result = await inProcess(['verify', `${site.origin}/`]);
    expect(result.code).toBe(EXIT.FAILURES);
    expect(result.stderr).toBe('');
  });

  it('reads at most --max-page-bytes of a page: one past it is PAGE_TOO_LARGE', async () => {
    const result = await inProcess(['verify', `${site.origin}/`, '--max-page-bytes', '100']);
    expect(result.code).toBe(EXIT.FAILURES);
    expect(result.stdout).toContain(`PAGE_TOO_LARGE  ${site.origin}/ sends more than 100 bytes, the most verify reads of a page`);
  });

  it('says "1 state", not "1 states"', async () => {
    const result = await inProcess(['verify', `${site.origin}/`, '--max', '1']);
    expect(result.stdout).toMatch(/\n1 state crawled \(/);
  });

  it('writes JSON with --json, from the real bin', async () => {
    const result = await cli(['verify', `${site.origin}/`, '--json']);
    expect(result.code).toBe(EXIT.FAILURES);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ start: `${site.origin}/`, problems: 28, browser: false });
    expect(report.states.find((s: { url: string }) => s.url === `${site.origin}/#!/a`).clean).toEqual({
      url: `${site.origin}/a`,
      bot: { status: 404, title: expect.any(String), description: '' },
      browser: { status: 404, shell: false },
      differ: false,
    });
  });

  it('exits 0 for a site with warnings and no problem, printing them apart and counting them in the summary', async () => {
    // One page, the same for every agent, with a title, a description, og: tags and no og:image.
    const page = '<!doctype html><title>Home</title><meta name="description" content="d"><meta property="og:title" content="Home">';
    const warned = await listen((req, res) => res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html' }).end(page));
    try {
      const result = await inProcess(['verify', `${warned.base}/`]);
      expect(result.code).toBe(EXIT.OK);
      expect(result.stdout).not.toContain('Problems:');
      expect(result.stdout).toContain(`Warnings:\nMISSING_OG_IMAGE  the page of ${warned.base}/ has Open Graph tags but no og:image`);
      expect(result.stdout.trimEnd().endsWith('0 problems, 1 warning')).toBe(true);
      const json = JSON.parse((await inProcess(['verify', `${warned.base}/`, '--json'])).stdout);
      expect(json).toMatchObject({ problems: 0, warnings: 1, states: [{ problems: [], warnings: [{ code: 'MISSING_OG_IMAGE' }] }] });
    } finally {
      await warned.close();
    }
  });

  it.each([
    [['verify'], 'give one http(s) URL to start from'],
    [['verify', 'ftp://x'], 'give one http(s) URL to start from'],
    [['verify', 'http://a.test', '--max', '0'], '--max must be a whole number above 0, got "0"'],
    [['verify', 'http://a.test', '--timeout', '0'], '--timeout must be a whole number above 0, got "0"'],
    [['verify', 'http://a.test', '--timeout=-5'], '--timeout must be a whole number above 0, got "-5"'],
    [['verify', 'http://a.test', '--timeout', 'soon'], '--timeout must be a whole number above 0, got "soon"'],
    [['verify', 'http://a.test', '--timeout', '1.5'], '--timeout must be a whole number above 0, got "1.5"'],
    [['verify', 'http://a.test', '--max-page-bytes', '0'], '--max-page-bytes must be a whole number above 0, got "0"'],
    [['verify', 'http://a.test', '--max-page-bytes', '5M'], '--max-page-bytes must be a whole number above 0, got "5M"'],
    [['verify', 'http://a.test', '--nope'], "Unknown option '--nope'"],
    [['verify', 'http://a.test/?_escaped_fragment_=%zz'], 'the start URL http://a.test/?_escaped_fragment_=%zz names no state:'],
  ])('exits 2 for %j', async (args, message) => {
    const result = await inProcess(args);
    expect(result.code).toBe(EXIT.USAGE);
    expect(result.stderr).toContain(message);
  });

  it('reports a state past --timeout as FETCH_FAILED naming it, crawls on, and exits 1', async () => {
    // A start page that links to a state that never answers and to one that does.
    const slow = await listen((req, res) => {
      if (req.url === '/hang') return;
      if (req.url === '/robots.txt' || req.url === '/sitemap.xml') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title><a href="/hang">hang</a> <a href="/ok">ok</a>');
    });
    try {
      const result = await inProcess(['verify', `${slow.base}/`, '--timeout', '300', '--json']);
      expect(result.code).toBe(EXIT.FAILURES);
      const report = JSON.parse(result.stdout);
      expect(report.states.map((s: { url: string; status: number }) => [s.url, s.status])).toEqual([
        [`${slow.base}/`, 200],
        [`${slow.base}/hang`, 0],
        [`${slow.base}/ok`, 200],
      ]);
      expect(report.states[1].problems).toEqual([
        {
          code: 'FETCH_FAILED',
          message: `${slow.base}/hang: the state took longer than 300 ms, the longest one state may take (verify --timeout)`,
        },
      ]);
    } finally {
      await slow.close();
    }
  });

  it('exits 3 when the browser cannot start', async () => {
    const err: string[] = [];
    const code = await run(['verify', `${site.origin}/`, '--browser'], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => err.push(t) },
      cwd: dir,
      browser: () => Promise.reject(new Error('no chromium here')),
    });
    expect(code).toBe(EXIT.SETUP);
    expect(err.join('')).toContain('cannot start Chromium: no chromium here');
  });
});
