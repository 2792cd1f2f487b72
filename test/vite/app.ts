// A Vite app in a temp folder for the plugin's tests: index.html, main.ts and a TypeScript route
// table, with the package linked into its node_modules as npm links it (so `npm run build` first),
// and Vite's JS API with no config file, silent, on 127.0.0.1 port 0.
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createServer, build, preview, type Connect, type InlineConfig, type Logger, type PreviewServer, type ViteDevServer } from 'vite';
import { crawlableRouter, type CrawlableRouterOptions } from 'crawlable-router/vite';

export const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
export const ORIGIN = 'https://example.com';

export const INDEX = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Books</title></head>
<body><div id="app"></div><script type="module" src="/main.ts"></script></body></html>
`;

export const MAIN = `import { createRouter } from 'crawlable-router/client';
import { routes } from './routes';
createRouter({ routes, outlet: '#app' }).start();
`;

/** The route table: a home, `count` books listed by entries(), a book that fails when `failing`, a notFound view. */
export function routesTs({ count = 2, failing = false, heading = 'Book', base = '/' } = {}): string {
  return `import { createRoutes, notFound } from 'crawlable-router';

const books: Record<string, string> = Object.fromEntries(Array.from({ length: ${count} }, (_, i) => [String(i + 1), 'Book ' + (i + 1)]));
${failing ? "books['bad'] = 'Bad';\n" : ''}
export const routes = createRoutes(
  [
    { path: '/', title: 'Books', render: () => '<h1>Books</h1>' },
    {
      path: '/books/:id',
      entries: () => Object.keys(books).map((id) => ({ id })),
      load: ({ params }): string => {
        if (params.id === 'bad') throw new Error('the database is down');
        const title = books[params.id];
        if (title === undefined) throw notFound();
        return title;
      },
      title: ({ data }: { data: string }) => data,
      render: ({ data }: { data: string }) => '<h1>${heading}: ' + data + '</h1>',
    },
  ],
  { base: ${JSON.stringify(base)}, notFound: { title: 'Not found', render: () => '<h1>No such page</h1>' } },
);
`;
}

/** A route table whose routes carry React views (crawlable-router/react), written without JSX. */
export const VIEWS_TS = `import { createElement } from 'react';
import { createRoutes, notFound } from 'crawlable-router';
import { Link } from 'crawlable-router/react';

export const routes = createRoutes(
  [
    {
      path: '/',
      title: 'Books',
      view: () => createElement('h1', null, 'Drawn by React: ', createElement(Link, { to: 'book', params: { id: '1' } }, 'the first')),
    },
    {
      path: '/books/:id',
      name: 'book',
      entries: () => [{ id: '1' }],
      load: ({ params }): string => {
        if (params.id !== '1') throw notFound();
        return 'Book ' + params.id;
      },
      title: ({ data }: { data: string }) => data,
      view: ({ data }: { data: string }) => createElement('h1', null, 'React: ' + data),
    },
  ],
  { notFound: { title: 'Not found', view: () => createElement('h1', null, 'No such page, said React') } },
);
`;

/** An app folder; `remove()` deletes it. */
export interface App {
  root: string;
  write(file: string, text: string): Promise<void>;
  read(file: string): Promise<string>;
  remove(): Promise<void>;
}

export async function makeApp(files: Record<string, string> = {}): Promise<App> {
  const root = await mkdtemp(path.join(tmpdir(), 'crawlable-router-vite-plugin-'));
  await mkdir(path.join(root, 'node_modules'));
  // The package, and React for the apps whose routes carry views, as npm installs them.
  for (const name of ['crawlable-router', 'react', 'react-dom'])
    await symlink(
      name === 'crawlable-router' ? process.cwd() : path.resolve('node_modules', name),
      path.join(root, 'node_modules', name),
      'dir',
    );
  const write = async (file: string, text: string) => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  };
  for (const [file, text] of Object.entries({ 'index.html': INDEX, 'main.ts': MAIN, 'routes.ts': routesTs(), ...files }))
    await write(file, text);
  return {
    root,
    write,
    read: (file) => readFile(path.join(root, file), 'utf8'),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** What a logger was told, line by line, as `info`, `warn` or `error`. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const warned = new Set<string>();
  return {
    lines,
    info: (msg) => void lines.push(`info ${msg}`),
    warn: (msg) => void lines.push(`warn ${msg}`),
    warnOnce: (msg) => {
      if (!warned.has(msg)) lines.push(`warn ${msg}`);
      warned.add(msg);
    },
    error: (msg) => void lines.push(`error ${msg}`),
    clearScreen: () => {},
    hasErrorLogged: () => false,
    hasWarned: false,
  };
}

const plugin = (options: Partial<CrawlableRouterOptions>) => crawlableRouter({ routes: 'routes.ts', origin: ORIGIN, ...options });

/** Vite's config for the app: no config file, silent, no dependency discovery (nothing to optimize in the background). */
const configOf = (app: App, options: Partial<CrawlableRouterOptions>, extra: InlineConfig): InlineConfig => ({
  root: app.root,
  configFile: false,
  logLevel: 'silent',
  optimizeDeps: { noDiscovery: true, include: [] },
  plugins: [plugin(options)],
  ...extra,
});

/** `vite dev` of the app, listening on 127.0.0.1. */
export async function devServer(app: App, options: Partial<CrawlableRouterOptions> = {}, extra: InlineConfig = {}): Promise<ViteDevServer> {
  const server = await createServer(configOf(app, options, { server: { host: '127.0.0.1', port: 0, strictPort: false }, ...extra }));
  try {
    return await server.listen();
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** `vite build` of the app. */
export async function viteBuild(app: App, options: Partial<CrawlableRouterOptions> = {}, extra: InlineConfig = {}): Promise<void> {
  await build(configOf(app, options, extra));
}

/** `vite preview` of the app's build, on 127.0.0.1. */
export async function previewServer(
  app: App,
  options: Partial<CrawlableRouterOptions> = {},
  extra: InlineConfig = {},
): Promise<PreviewServer> {
  return preview(configOf(app, options, { preview: { host: '127.0.0.1', port: 0 }, ...extra }));
}

/** The first URL a server listens on. */
export const urlOf = (server: ViteDevServer | PreviewServer): string => server.resolvedUrls?.local[0] as string;

/** GET `url` with a `User-Agent`. */
export async function get(url: string, agent: string): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetch(url, { headers: { 'user-agent': agent }, redirect: 'manual' });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** `makeApp` for a test file: each app made is removed after its test. */
export function appsRemovedAfterEach(): (files?: Record<string, string>) => Promise<App> {
  let apps: App[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((made) => made.remove()));
    apps = [];
  });
  return async (files = {}) => {
    const made = await makeApp(files);
    apps.push(made);
    return made;
  };
}

/** `server` as a plugin's hook sees it, its `middlewares` being `middlewares`. */
export const withMiddlewares = <S extends object>(server: S, middlewares: { use(handle: Connect.NextHandleFunction): void }): S =>
  new Proxy(server, { get: (target, key) => (key === 'middlewares' ? middlewares : Reflect.get(target, key)) });

/**
 * GET `target` as a bot with the `Host` header `host` from a server on 127.0.0.1 that runs, alone,
 * the middleware a plugin's hook (`add`) adds, its `next()` answered 404 `next`: the middleware as it
 * runs in a Vite that puts its own (its Host check) after the plugins' (Vite 6).
 */
export async function askAlone(
  add: (middlewares: { use(handle: Connect.NextHandleFunction): void }) => Promise<unknown>,
  target: string,
  host: string,
): Promise<{ status: number; body: string }> {
  let middleware: Connect.NextHandleFunction | undefined;
  await add({ use: (handle) => void (middleware = handle) });
  const listener = createHttpServer((req, res) => middleware?.(req, res, () => res.writeHead(404).end('next')));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = listener.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      const ask = request({ host: '127.0.0.1', port, path: target, headers: { host, 'user-agent': BOT } }, (res) => {
        let body = '';
        res.on('data', (part: Buffer) => (body += part));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ask.on('error', reject).end();
    });
  } finally {
    await new Promise((resolve) => listener.close(resolve));
  }
}
