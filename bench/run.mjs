// `npm run bench` (`-- --quick` for a short pass): every figure side by side with the peers in one
// run, printed as tables of ratios with the goal and pass/short, and written to bench/RESULTS.md
// with one SVG chart per figure under bench/charts/.
import { mkdir, writeFile } from 'node:fs/promises';
import { naiveFaults, runCodec } from './codec.mjs';
import { fmt, machine } from './lib/measure.mjs';
import { barChart, markdown, print } from './lib/report.mjs';
import { runMatch } from './match.mjs';
import { runRedis } from './redis.mjs';
import { runSize, sizeFigure } from './size.mjs';
import { runCleanUrls } from './clean-urls.mjs';
import { runSnapshots } from './snapshots.mjs';
import { runHeadless } from './headless.mjs';

const quick = process.argv.includes('--quick');
const sections = [];
const charts = {};
const verdict = (ok) => (ok ? 'pass' : 'short');

function figure(title, header, rows, notes = '') {
  print(title, header, rows);
  sections.push(`## ${title}\n\n${markdown(header, rows)}\n${notes ? `\n${notes}\n` : ''}`);
}

// 1. Route matching
const sizes = [10, 100, 1000];
const match = runMatch({ sizes, quick });
const ours = match['crawlable-router'];
const fmw = match['find-my-way'];
const growth = ours[1000] / ours[10];
figure(
  'Route matching (ns per match)',
  ['router', ...sizes.map((n) => `${n} routes`), 'growth 10→1000'],
  Object.entries(match).map(([name, r]) => [name, ...sizes.map((n) => fmt(r[n])), `×${(r[1000] / r[10]).toFixed(1)}`]),
);
figure(
  'Route matching: goals',
  ['goal', 'measured', 'result'],
  [
    ...sizes.map((n) => [`within 2× of find-my-way at ${n} routes`, `×${(ours[n] / fmw[n]).toFixed(2)}`, verdict(ours[n] / fmw[n] <= 2)]),
    ['cost growth 10→1000 routes at most 2×', `×${growth.toFixed(2)}`, verdict(growth <= 2)],
  ],
  'Each router is timed in rounds that interleave every (router, size) pair, the median of five rounds or more. On a shared ' +
    'machine these ratios still move between whole runs, at 10 routes most (the same matcher timed twice in one ' +
    'round has differed by a quarter with its place in the round): a verdict near its bound holds for this run only.' +
    ' Growth 10→1000 is the cost of 1,600 distinct paths and 400 first segments in the caches (find-my-way grows more in the same runs), and of the smallest tables comparing their few static edges in place. Until 03be0d4 every match also read its empty query (a split, a map and a flat() of nothing: about 470 ns, three quarters of a match at 10 routes): the runs before read 618–711 ns a match, ×8.3 find-my-way’s at 10 routes and ×2.9 at 1000.',
);
charts['match-1000'] = barChart({
  title: 'ns per match, 1000 routes',
  unit: 'ns',
  log: true,
  bars: Object.entries(match).map(([label, r]) => ({
    label,
    value: Math.round(r[1000]),
    text: `${fmt(r[1000])} ns`,
    ours: label === 'crawlable-router',
  })),
});

// 2. Codec
const codec = runCodec({ quick });
const faults = naiveFaults();
figure(
  'Codec: pretty → ugly → pretty round trip (ns)',
  ['mapper', 'ns per round trip', 'ratio', 'goal', 'result'],
  [
    ['crawlable-router', fmt(codec.ours), '×1', '', ''],
    [
      'URL + URLSearchParams (naive)',
      fmt(codec.naive),
      `×${(codec.naive / codec.ours).toFixed(2)} slower`,
      '≥ 10× faster',
      verdict(codec.naive / codec.ours >= 10),
    ],
  ],
  `The naive mapper is also wrong on ${faults.length} of the ${8} corpus URLs:\n\n${faults.map((f) => `- \`${f.url}\`: ${f.faults.join('; ')}`).join('\n')}`,
);
charts.codec = barChart({
  title: 'ns per pretty→ugly→pretty round trip',
  unit: 'ns',
  bars: [
    { label: 'crawlable-router', value: Math.round(codec.ours), ours: true },
    { label: 'URL + URLSearchParams', value: Math.round(codec.naive) },
  ],
});

// 3. Size
const size = sizeFigure(await runSize());
figure(size.title, size.header, size.rows, size.notes);
charts.size = size.chart;

// 4. Snapshots
const CACHED_NOTE =
  "The bare server sends the handler's very bytes: the same headers, names, case and order (node:http writes Date, " +
  'Connection and Keep-Alive for both), and both write an answer in one `writev` with Content-Length. The handler writes ' +
  'a hit within the request listener call from memos; only a request that waits for a render makes a signal.';
const snap = await runSnapshots({ quick });
const ms = (v) => `${v.toFixed(v < 1 ? 3 : 1)} ms`;
const x = (a, b) => `×${(a / b).toFixed(a / b >= 10 ? 0 : 2)}`;
figure(
  'Snapshots of one demo book page (median ms per snapshot, caches off)',
  ['renderer', 'pushState app /books/:id', 'client-only app /spa/books/:id'],
  [
    ['crawlable-router: render hooks', ms(snap.hooks), '(no hooks: client-only)'],
    ['crawlable-router: headlessRenderer (happy-dom), each render from rest', '', ms(snap.happy)],
    ['headless Chromium, a new page per snapshot (prerender/Rendertron way)', ms(snap.chromiumNew), ms(snap.spaChromiumNew)],
    ['headless Chromium, reusing one page', ms(snap.chromiumReuse), ms(snap.spaChromiumReuse)],
  ],
  `Chromium's process tree held ${Math.round(snap.chromiumRss)} MiB while it rendered. Each happy-dom render starts once ` +
    "the renderer's page processes are at rest (its spares started and waiting, see the headless figures); Chromium's " +
    'renders run back to back.',
);
const served = snap.served.rps / snap.bare.rps;
const rssGrowth = snap.rss.after - snap.rss.before;
figure(
  'Snapshots: goals',
  ['goal', 'measured', 'result'],
  [
    [
      'render hooks uncached p50 ≥ 100× faster than Chromium (new page)',
      x(snap.chromiumNew, snap.hooks),
      verdict(snap.chromiumNew / snap.hooks >= 100),
    ],
    [
      `cached snapshots ≥ 90% of bare node:http req/s (${snap.bytes} B, 50 connections)`,
      `${Math.round(snap.served.rps)} vs ${Math.round(snap.bare.rps)} req/s = ${(served * 100).toFixed(1)}%`,
      verdict(served >= 0.9),
    ],
    [
      'happy-dom p50 ≥ 5× faster than Chromium (new page)',
      x(snap.spaChromiumNew, snap.happy),
      verdict(snap.spaChromiumNew / snap.happy >= 5),
    ],
    [
      'happy-dom p50 no slower than Chromium reusing one page',
      x(snap.spaChromiumReuse, snap.happy),
      verdict(snap.happy <= snap.spaChromiumReuse),
    ],
    [
      `server process RSS growth under 30 MB over ${snap.rss.count} happy-dom snapshots (after ${snap.rss.warm} to warm up)`,
      `${rssGrowth.toFixed(1)} MiB (${snap.rss.before.toFixed(0)} → ${snap.rss.after.toFixed(0)} MiB; the warm-up took ${snap.rss.start.toFixed(0)} → ${snap.rss.before.toFixed(0)}; heap ${snap.rss.heap.toFixed(0)} MiB)${snap.rss.gc ? '' : ', without gc'}`,
      verdict(rssGrowth < 30 && snap.rss.count >= 100),
    ],
  ],
  CACHED_NOTE +
    '\n\nThe RSS growth is of the server process alone. Every happy-dom snapshot runs in a page process started for it and ' +
    `killed after it (about 0.6 s of CPU a start), so the count is ${snap.rss.count}; the page processes' own memory at rest is in ` +
    '"headlessRenderer against the renderer before single-use page processes".',
);
charts.snapshots = barChart({
  title: 'ms per snapshot of a demo book page',
  unit: 'ms',
  log: true,
  bars: [
    { label: 'render hooks', value: snap.hooks, text: ms(snap.hooks), ours: true },
    { label: 'happy-dom (client-only app)', value: snap.happy, text: ms(snap.happy), ours: true },
    { label: 'Chromium, reused page', value: snap.chromiumReuse, text: ms(snap.chromiumReuse) },
    { label: 'Chromium, new page', value: snap.chromiumNew, text: ms(snap.chromiumNew) },
  ],
});

// 4b. headlessRenderer against the one before single-use page processes (issue 43)
const head = await runHeadless({ quick });
const notMeasured = 'not measured (set BEFORE_DIST)';
const hasBefore = head.p50.before !== null;
const ratio = (a, b) => (hasBefore ? `×${(a / b).toFixed(2)}` : '');
const p50Ratio = hasBefore ? head.p50.new / head.p50.before : null;
figure(
  'headlessRenderer against the renderer before single-use page processes',
  ['figure', 'new (a page process a page)', 'before (one page process reused)', 'new / before', 'goal', 'result'],
  [
    [
      `render p50, one at a time from rest (${head.states} demo states × ${head.rounds})`,
      ms(head.p50.new),
      hasBefore ? ms(head.p50.before) : notMeasured,
      ratio(head.p50.new, head.p50.before),
      'at most ×1.25',
      hasBefore ? verdict(p50Ratio <= 1.25) : '',
    ],
    [
      'render p95, the same renders',
      ms(head.p95.new),
      hasBefore ? ms(head.p95.before) : notMeasured,
      ratio(head.p95.new, head.p95.before),
      '',
      '',
    ],
    [
      `renders per second, ${head.inFlight} in flight (maxPages 4, ${head.count} renders)`,
      head.rps.new.toFixed(2),
      hasBefore ? head.rps.before.toFixed(2) : notMeasured,
      ratio(head.rps.new, head.rps.before),
      '',
      '',
    ],
    [
      'RSS of the page processes at rest',
      `${head.rss.new.toFixed(0)} MiB (${head.procs.new} processes)`,
      hasBefore ? `${head.rss.before.toFixed(0)} MiB (${head.procs.before} process${head.procs.before === 1 ? '' : 'es'})` : notMeasured,
      ratio(head.rss.new, head.rss.before),
      '',
      '',
    ],
  ],
  'Both renderers run the client-only demo app (/spa/) with the same options (maxPages 4, caches off), in one process, ' +
    'the before one being the package built at the commit before single-use page processes (694d3c6), loaded from env BEFORE_DIST. ' +
    'One at a time: the two renderers are interleaved state by state (home, lists, a search, books, authors, a 404), ' +
    'which goes first alternating, and each render starts once no page process has used CPU over two 150 ms windows in ' +
    "a row: the new renderer's spares have started and wait, as a crawler's spaced requests find them " +
    `(that wait was ${(head.waited / 1000).toFixed(1)} s at the median). ` +
    'Both are warmed up first (two renders each). A new page process has loaded happy-dom and rendered a warm-up page ' +
    '(a deferred script, a fetch through the interceptor, DOM building, the settled signal, serialisation) before it is ' +
    "ready; what it has not run is the app's own script, compiled fresh in each process, while the before renderer's " +
    "one process has run it, and happy-dom's paths, hundreds of times. Renders per second: a fixed count of renders of " +
    'the same states, four in flight, from rest; each new render costs a process start (about 0.6 s of CPU) on ' +
    "this 2-core machine. RSS: the resident memory (/proc) of the processes whose command names the package's page " +
    'process file, `unshare` included where page processes run in namespaces of their own, once renders are over and ' +
    `spares started. Load average (1 min) ${head.load.map((l) => l.toFixed(1)).join(' at the start, ')} at the end of these figures; ` +
    'the machine is shared, and wall-clock figures move with it.',
);
if (hasBefore)
  charts.headless = barChart({
    title: 'headless render p50, one at a time (ms)',
    unit: 'ms',
    bars: [
      { label: 'a page process a page (new)', value: head.p50.new, text: ms(head.p50.new), ours: true },
      { label: 'one page process reused (before)', value: head.p50.before, text: ms(head.p50.before) },
    ],
  });

// 5. A fleet's store
const stores = await runRedis({ quick });
figure(
  'A cached snapshot from Redis against memory (req/s, 50 connections)',
  ['store', 'asked', 'req/s', 'non-2xx + errors', 'ratio'],
  Object.entries(stores).flatMap(([asked, { memory, redis }]) => [
    ['memoryStore (in the process)', asked, fmt(Math.round(memory.rps)), String(memory.non2xx + memory.errors), '×1'],
    [
      'redisStore (redis-server on 127.0.0.1)',
      asked,
      fmt(Math.round(redis.rps)),
      String(redis.non2xx + redis.errors),
      `×${(redis.rps / memory.rps).toFixed(2)}`,
    ],
  ]),
  "Every request asks Redis: a process that holds the state's snapshot reads only the stored value's header (GETRANGE) to see that Redis still keeps that one, else it reads the value (one GET, decoded); concurrent requests for one state in a process share that read, as they share a render. The answer prepared from a snapshot (its bytes, gzipped when asked) is made once per process, on that copy.",
);

// 6. Clean URLs: bots from the cache, server rendering, hydration
const clean = await runCleanUrls({ quick });
const botServed = clean.served.rps / clean.bare.rps;
figure(
  'Clean URLs: goals and figures',
  ['figure', 'measured', 'result'],
  [
    [
      `a bot at a clean URL from the cache ≥ 90% of bare node:http req/s (${clean.bytes} B, 50 connections)`,
      `${Math.round(clean.served.rps)} vs ${Math.round(clean.bare.rps)} req/s = ${(botServed * 100).toFixed(1)}%`,
      verdict(botServed >= 0.9),
    ],
    ["'all': time to first byte of an uncached state (/ssr/books/:id, its data in the page)", ms(clean.ttfbAll), ''],
    ['the same state rendered by the hooks alone (no HTTP, no data script)', ms(clean.renderHooks), ''],
    [
      `a person's first navigation in Chromium, to the router's settled signal (median of ${clean.firstCount})`,
      `hydrated ${ms(clean.firstHydrated)} (${clean.dataRequestsHydrated} data requests) vs shell then load ${ms(clean.firstShell)} (${clean.dataRequestsShell} data requests)`,
      '',
    ],
  ],
  'The bot figure is made as the ugly URL one (see "Snapshots: goals"): the same bytes, Vary: User-Agent included; the bot list verdict is kept per User-Agent.',
);

await mkdir(new URL('./charts/', import.meta.url), { recursive: true });
for (const [name, svg] of Object.entries(charts)) await writeFile(new URL(`./charts/${name}.svg`, import.meta.url), svg);
const header = `# Benchmark results\n\nOne run of \`npm run bench${quick ? ' -- --quick' : ''}\` on ${machine()}, ${new Date().toISOString().slice(0, 10)}. Every ratio compares figures from this same run; warm-up first, then the median of several rounds.\n\n${Object.keys(
  charts,
)
  .map((name) => `![${name}](charts/${name}.svg)`)
  .join('\n')}\n`;
await writeFile(new URL('./RESULTS.md', import.meta.url), [header, ...sections].join('\n'));
console.log('\nwrote bench/RESULTS.md and bench/charts/');
