// `node bench/verify-memory.mjs [--pages 30] [--mib 10] [--shape text|elements|links] [-- verify options]`
// (after `npm run build`): the peak resident memory of `crawlable-router verify` crawling a site of
// big pages that all link to each other, from a small start page that links to them all. The site runs in this process on 127.0.0.1; verify runs in
// a child process of its own, which reports its peak RSS (getrusage's maxrss) as it exits.
// Shapes: `text`, each page one run of text; `elements`, each page `<p>x</p>` over and over (the most
// nodes a parse makes of its bytes); `links`, `<a href>` over and over, to the other pages; `nested`,
// `<div>` over and over, never closed (the deepest page for its bytes).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    pages: { type: 'string', default: '30' },
    mib: { type: 'string', default: '10' },
    shape: { type: 'string', default: 'elements' },
  },
  allowPositionals: true,
});
const pages = Number(values.pages);
const size = Math.round(Number(values.mib) * 2 ** 20);
const unit = { text: 'lorem ipsum ', elements: '<p>x</p>', links: '<a href="/p1">x</a>', nested: '<div>' }[values.shape];
if (!unit) throw new Error(`--shape is text, elements, links or nested, got ${values.shape}`);

// Each page: its head and links to every page, then the shape's unit up to `size` bytes, a little
// under it so the page is read whole below a cap of exactly that size.
const head = (n) =>
  `<!doctype html><html><head><title>Page ${n}</title><meta name="description" content="page ${n}"></head><body>` +
  Array.from({ length: pages }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
const tail = '</body></html>';
const fill = Buffer.from(unit.repeat(Math.floor((size - head(pages).length - tail.length - 1024) / unit.length)));

const server = createServer((req, res) => {
  // The start: a small page that links to every big one.
  if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', vary: 'User-Agent' }).end(head('s'));
  const n = /^\/p(\d+)$/.exec(req.url ?? '')?.[1];
  if (n === undefined || Number(n) >= pages) return res.writeHead(404).end('not found');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', vary: 'User-Agent' });
  res.write(head(n));
  res.write(fill);
  res.end(tail);
});
// A state's sockets may sit idle while verify parses a big page: Node's 5 s would close them under it.
server.keepAliveTimeout = 120_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const start = `http://127.0.0.1:${server.address().port}/`;

const child = `
import { run } from './dist/cli/index.js';
let json = '';
const sink = { write: (text) => ((json += text), true), isTTY: false };
const code = await run(process.argv.slice(1), { stdout: sink, stderr: process.stderr, cwd: process.cwd() });
const maxRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
const problems = {};
const first = {};
for (const state of JSON.parse(json).states)
  for (const p of state.problems) {
    problems[p.code] = (problems[p.code] ?? 0) + 1 + (p.more ?? 0);
    first[p.code] ??= p.message.slice(0, 200);
  }
if (Object.keys(first).length) process.stderr.write(JSON.stringify(first) + '\\n');
process.stderr.write(JSON.stringify({ code, maxRssMiB, problems }) + '\\n');
`;
const args = ['--input-type=module', '-e', child, 'verify', start, '--json', '--max', String(pages + 1), ...positionals];
const began = Date.now();
const out = await new Promise((resolve, reject) => {
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (chunk) => (err += chunk));
  proc.on('error', reject);
  proc.on('close', () => resolve(err));
});
server.close();
const lines = out.trim().split('\n');
const result = JSON.parse(lines.pop());
if (lines.length) console.log(lines.join('\n'));
console.log(
  `${pages} pages of ${values.mib} MiB (${values.shape}), verify ${positionals.join(' ') || '(defaults)'}: ` +
    `peak RSS ${result.maxRssMiB} MiB, exit ${result.code}, problems ${JSON.stringify(result.problems)}, ` +
    `${((Date.now() - began) / 1000).toFixed(1)} s`,
);
