import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAppFolder } from '../../../src/server/headless/app-files.js';
import {
  answerAsync,
  answerSync,
  REQUEST_BYTES,
  REQUESTS_AT_ONCE,
  REQUESTS_WAITING,
  type Gate,
} from '../../../src/server/headless/gate.js';
import { MAX_FRAME, type GateRequest } from '../../../src/server/headless/protocol.js';
import { RENDER_HEADER } from '../../../src/server/nested.js';
import type { RenderJob } from '../../../src/server/render/render.js';
import { listen, type Running } from '../helpers.js';
import { SOON } from '../../liveness.js';

// The gate answers, in the server's process, every request a page process sends; the page process
// is not trusted, so each rule holds whatever URL, method or headers it sends.

let dir: string;
let upstream: Running;
let seen: Array<{ url: string; host: string; method: string }> = [];
let heard: string[] = [];
// Each field line of the render's mark the upstream got, per request.
let marks: string[][] = [];
let gate: Gate;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'headless-gate-'));
  mkdirSync(path.join(dir, 'app', 'data'), { recursive: true });
  writeFileSync(path.join(dir, 'app', 'index.html'), '<!DOCTYPE html><title>Shell</title>');
  writeFileSync(path.join(dir, 'app', 'data', 'books.json'), '{"1":"Dune"}');
  writeFileSync(path.join(dir, 'secret.txt'), 'TOP SECRET');
  upstream = await listen((req, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host ?? '', method: req.method ?? '' });
    heard = Object.keys(req.headers);
    marks.push(req.headersDistinct[RENDER_HEADER] ?? []);
    res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'a=b' }).end('from upstream');
  });
  gate = {
    folder: openAppFolder(path.join(dir, 'app')),
    indexPath: '/index.html',
    upstream: upstream.base,
    upstreamMethods: ['GET', 'HEAD'],
  };
});

beforeEach(() => {
  seen = [];
  marks = [];
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const settings = { origin: 'https://example.com', base: '/', mode: 'history' as const };
const job = {
  location: '/books/1',
  url: 'https://example.com/books/1',
  canonical: 'https://example.com/books/1',
  match: null,
  notFound: false,
  settings,
  signal: new AbortController().signal,
} satisfies RenderJob;
const ask = (url: string, method = 'GET', headers: Array<[string, string]> = []): GateRequest => ({
  url,
  method,
  headers,
  body: method === 'POST' ? new Uint8Array([1, 2]) : null,
});
const text = (answer: Awaited<ReturnType<typeof answerAsync>>) =>
  answer ? `${answer.status} ${Buffer.from(answer.body).toString()}` : 'network error';

describe('the headless gate', () => {
  it('answers a page process asking for another origin, or for a URL that does not parse, with a network error and fetches nothing', async () => {
    for (const url of [
      'https://evil.example/x',
      'http://example.com/x',
      'https://example.com:8443/x',
      `${upstream.base}/x`,
      'http://127.0.0.1:1/x',
      'not a url',
      'file:///etc/passwd',
      'ws://example.com/x',
    ]) {
      expect(text(await answerAsync(gate, job, ask(url), job.signal))).toBe('network error');
      expect(await answerSync(gate, job, ask(url))).toBeNull();
    }
    expect(seen).toEqual([]);
  });

  it('sends every other same-origin request to the upstream and nowhere else, whatever its path, without the page host header or the upstream cookies', async () => {
    for (const pathname of ['/api/x?q=1', '//evil.example/x', '/@evil.example/x', '/..%2F..%2Fsecret.txt', '/%2e%2e/secret.txt']) {
      expect(
        text(
          await answerAsync(
            gate,
            job,
            ask('https://example.com' + pathname, 'GET', [
              ['host', 'evil.example'],
              ['x-app', '1'],
            ]),
            job.signal,
          ),
        ),
      ).toBe('200 from upstream');
    }
    expect(seen.map((s) => s.host)).toEqual(Array(5).fill(`127.0.0.1:${upstream.port}`));
    expect(heard).toContain('x-app');
    expect(seen[0]).toEqual({ url: '/api/x?q=1', host: `127.0.0.1:${upstream.port}`, method: 'GET' });
    const answer = await answerAsync(gate, job, ask('https://example.com/api/x'), job.signal);
    expect(answer?.headers.map(([name]) => name)).not.toContain('set-cookie');
  });

  it('serves the shell at the job URL only, the folder files to GET only, and never a file outside the folder', async () => {
    expect(text(await answerAsync(gate, job, ask('https://example.com/books/1#top'), job.signal))).toBe(
      '200 <!DOCTYPE html><title>Shell</title>',
    );
    expect(text(await answerAsync(gate, job, ask('https://example.com/data/books.json'), job.signal))).toBe('200 {"1":"Dune"}');
    const writes = { ...gate, upstreamMethods: ['GET', 'POST'] };
    expect(text(await answerAsync(writes, job, ask('https://example.com/data/books.json', 'POST'), job.signal))).toBe('200 from upstream');
    expect(seen).toEqual([{ url: '/data/books.json', host: `127.0.0.1:${upstream.port}`, method: 'POST' }]);
    const sync = await answerSync(gate, job, ask('https://example.com/data/books.json'));
    expect(sync && Buffer.from(sync.body).toString()).toBe('{"1":"Dune"}');
    for (const pathname of ['/../secret.txt', '/%2e%2e/secret.txt', '/data/..%2F..%2Fsecret.txt', '/api/x']) {
      expect(await answerSync(gate, job, ask('https://example.com' + pathname))).toMatchObject({ status: 404 });
    }
  });

  it('answers an upstream body past MAX_FRAME with a network error, reading no further: never buffered whole in the server', async () => {
    // An app that fetches `'/api/' + params.x` lets a crawler's URL pick any upstream path (`..%2F`),
    // such as a download or an endless stream: before, the server read it all into its own memory.
    const chunk = Buffer.alloc(1024 * 1024, 97);
    let sent = 0;
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const endless = await listen((_req, res) => {
      res.on('close', closed);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const pump = () => {
        while (!res.destroyed && sent < 4 * MAX_FRAME && res.write(chunk)) sent += chunk.length;
        if (sent >= 4 * MAX_FRAME) res.end();
      };
      res.on('drain', pump);
      pump();
    });
    const declared = await listen((_req, res) => {
      res.writeHead(200, { 'content-length': String(MAX_FRAME + 1) });
      res.write('x');
    });
    try {
      // Counted in bytes; the test's own time limit is the liveness bound (a gate that read on for
      // ever fails there, where a < 20 s check stood).
      expect(text(await answerAsync({ ...gate, upstream: endless.base }, job, ask('https://example.com/download'), job.signal))).toBe(
        'network error',
      );
      await gone;
      expect(sent).toBeLessThan(2 * MAX_FRAME);
      expect(text(await answerAsync({ ...gate, upstream: declared.base }, job, ask('https://example.com/big'), job.signal))).toBe(
        'network error',
      );
    } finally {
      await endless.close();
      await declared.close();
    }
  });

  it("holds at most REQUEST_BYTES of what a render's requests carry while they wait, and refuses one more at once (security, tenth round)", async () => {
    // Waiting requests were held with their bodies, URLs and headers: behind six slow answers of the
    // upstream, a page posting 400 bodies of 4 MiB made the server hold 1.6 GB (one crawler URL).
    const held: Array<() => void> = [];
    const slow = await listen((req, res) => {
      req.resume();
      held.push(() => res.end('ok'));
    });
    const render = new AbortController();
    const mine = { ...job, signal: render.signal };
    const mib = new Uint8Array(2 ** 20);
    try {
      const send = (request: GateRequest) =>
        answerAsync({ ...gate, upstream: slow.base, upstreamMethods: ['GET', 'POST'] }, mine, request, render.signal).then(
          text,
          () => 'network error',
        );
      const running = Array.from({ length: REQUESTS_AT_ONCE }, (_, i) => send(ask(`https://example.com/api/slow/${i}`)));
      const bodies = Array.from({ length: 100 }, (_, i) => send({ ...ask(`https://example.com/api/post/${i}`, 'POST'), body: mib }));
      const urls = Array.from({ length: 100 }, (_, i) => send(ask(`https://example.com/api/${i}?${'q'.repeat(2 ** 20)}`)));
      const room = Math.floor(REQUEST_BYTES / 2 ** 20);
      // Those past the room are refused at once, while the six still hold their turns.
      // (Nothing the upstream holds is released before they are: were they to wait for a turn, this
      // would never settle, and the test's liveness limit would fail it.)
      expect(await Promise.all([...bodies, ...urls].slice(room))).toEqual(Array(200 - room).fill('network error'));
      await vi.waitFor(() => expect(held).toHaveLength(REQUESTS_AT_ONCE), SOON);
      // Once the slow ones are answered, those that waited within the room are answered, six at a time.
      const admitted = Promise.all([...running, ...bodies.slice(0, room - 1)]);
      let done = false;
      void admitted.finally(() => (done = true));
      await vi.waitFor(() => {
        held.splice(0).forEach((release) => release());
        expect(done).toBe(true);
      }, SOON);
      expect((await admitted).every((answer) => answer === '200 ok')).toBe(true);
    } finally {
      render.abort();
      held.splice(0).forEach((release) => release());
      await slow.close();
    }
  });

  it('answers at most REQUESTS_AT_ONCE requests of a render at a time (upstream here), lets REQUESTS_WAITING wait, and refuses more at once', async () => {
    // A page that fetches in a loop (a DOM-XSS, an app bug): before, each request was a connection of
    // the server to the upstream at once (3,000 at once from one render of a looping page).
    let open = 0;
    let most = 0;
    const held: Array<() => void> = [];
    const slow = await listen((_req, res) => {
      most = Math.max(most, ++open);
      held.push(() => {
        open--;
        res.end('ok');
      });
    });
    const render = new AbortController();
    const mine = { ...job, signal: render.signal };
    try {
      const asked = REQUESTS_AT_ONCE + REQUESTS_WAITING + 40;
      const answers = Array.from({ length: asked }, (_, i) =>
        answerAsync({ ...gate, upstream: slow.base }, mine, ask(`https://example.com/api/${i}`), render.signal).then(
          text,
          () => 'network error',
        ),
      );
      // The 40 past the queue's room are refused at once.
      const early = await Promise.all(answers.slice(-40));
      expect(early).toEqual(Array(40).fill('network error'));
      await vi.waitFor(() => expect(held).toHaveLength(REQUESTS_AT_ONCE), SOON);
      // Each answer lets one waiting request go. Which 20 are answered first is the order their
      // connections reached the upstream in, not the order they were asked in: they are counted.
      let ok = 0;
      for (const answer of answers) void answer.then((said) => (ok += said === '200 ok' ? 1 : 0));
      for (let i = 0; i < 20; i++) {
        await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), SOON);
        held.shift()?.();
      }
      await vi.waitFor(() => expect(ok).toBe(20), SOON);
      await vi.waitFor(() => expect(held).toHaveLength(REQUESTS_AT_ONCE), SOON);
      expect(most).toBe(REQUESTS_AT_ONCE);
      // The render ends: whatever still waits, or is still at the upstream, is a network error, at once.
      render.abort();
      const rest = await Promise.all(answers.slice(0, -40));
      expect(rest.filter((answer) => answer === '200 ok')).toHaveLength(20);
      expect(rest.filter((answer) => answer === 'network error')).toHaveLength(rest.length - 20);
    } finally {
      held.splice(0).forEach((release) => release());
      await slow.close();
    }
  });

  it("holds a request's turn until its answer has gone to the page, so a render holds at most REQUESTS_AT_ONCE bodies", async () => {
    // Before, the turn ended once the file was read and the body was sent after it, a part at a
    // time: a page firing 60 fetches of a 32 MiB file had the server hold 60 bodies at once (1.9 GiB
    // of buffers, measured), 1006 of 64 MiB (the queue's room) would be 63 GiB.
    const render = new AbortController();
    const mine = { ...job, signal: render.signal };
    const sending: Array<() => void> = [];
    const delivered: string[] = [];
    const deliver = (answer: Parameters<typeof text>[0]) =>
      new Promise<void>((resolve) => sending.push(() => (delivered.push(text(answer)), resolve())));
    const asked = 3 * REQUESTS_AT_ONCE;
    const answers = Array.from({ length: asked }, () =>
      answerAsync(gate, mine, ask('https://example.com/data/books.json'), render.signal, deliver),
    );
    // Files are read on the thread pool: a turn's answer comes when it comes, so the test waits for
    // each count, then gives a further read a moment to show itself (a busy machine can only hide
    // one, never invent one).
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    await vi.waitFor(() => expect(sending).toHaveLength(REQUESTS_AT_ONCE), SOON);
    await settle();
    expect(sending).toHaveLength(REQUESTS_AT_ONCE);
    // One answer gone lets one more request be read.
    sending.shift()?.();
    expect(delivered).toEqual(['200 {"1":"Dune"}']);
    await vi.waitFor(() => expect(sending).toHaveLength(REQUESTS_AT_ONCE), SOON);
    await settle();
    expect(sending).toHaveLength(REQUESTS_AT_ONCE);
    await vi.waitFor(() => {
      sending.splice(0).forEach((release) => release());
      expect(delivered).toHaveLength(asked);
    }, SOON);
    expect(delivered).toEqual(Array(asked).fill('200 {"1":"Dune"}'));
    expect((await Promise.all(answers)).map(text)).toEqual(delivered);
    // A request the gate refuses at once is delivered too: the page always gets an answer.
    const refused = answerAsync(gate, mine, ask('https://evil.example/x'), render.signal, deliver);
    await vi.waitFor(() => expect(sending).toHaveLength(1), SOON);
    sending.splice(0).forEach((release) => release());
    expect(text(await refused)).toBe('network error');
    expect(delivered.at(-1)).toBe('network error');
  });

  it('never forwards the headers that say where a request came from, which the page cannot know', async () => {
    // An upstream behind a trusted proxy (the server, on its network) would believe them: a page
    // could pass itself off as an internal address.
    const spoofs = [
      'forwarded',
      'via',
      'x-forwarded-for',
      'X-Forwarded-Host',
      'x-forwarded-proto',
      'x-real-ip',
      'x-client-ip',
      'true-client-ip',
      'cf-connecting-ip',
    ];
    const answer = await answerAsync(
      gate,
      job,
      ask('https://example.com/api/x', 'GET', [...spoofs.map((name): [string, string] => [name, '10.0.0.1']), ['x-app', '1']]),
      job.signal,
    );
    expect(text(answer)).toBe('200 from upstream');
    expect(heard).toContain('x-app');
    for (const name of spoofs) expect(heard).not.toContain(name.toLowerCase());
  });

  it.each<[string, Array<[string, string]>]>([
    ['sets none', []],
    ['sets its own value', [[RENDER_HEADER, '0']]],
    [
      'sets it in another case, twice',
      [
        ['Crawlable-Router-Render', ''],
        ['CRAWLABLE-ROUTER-RENDER', 'no'],
      ],
    ],
    ['sends a hostile value', [[RENDER_HEADER, '"><img src=x onerror=alert(1)>']]],
  ])('marks every request it sends upstream as a render’s (crawlable-router-render: 1) when the page %s', async (_, headers) => {
    // The handler starts no render for a request with the mark (nested.ts): were the page able to
    // drop it, its requests to an upstream that is this server would nest renders again.
    const answer = await answerAsync(gate, job, ask('https://example.com/api/x', 'GET', [...headers, ['x-app', '1']]), job.signal);
    expect(text(answer)).toBe('200 from upstream');
    expect(heard).toContain('x-app');
    expect(marks).toEqual([['1']]);
  });

  it('marks HEAD and POST requests to the upstream too, and a file of the folder reaches no upstream', async () => {
    const posting = { ...gate, upstreamMethods: ['GET', 'HEAD', 'POST'] };
    for (const method of ['HEAD', 'POST'])
      expect(text(await answerAsync(posting, job, ask('https://example.com/api/x', method), job.signal))).toMatch(/^200/);
    expect(text(await answerAsync(gate, job, ask('https://example.com/data/books.json'), job.signal))).toBe('200 {"1":"Dune"}');
    expect(marks).toEqual([['1'], ['1']]);
  });

  it('answers 405 with Allow, reaching nothing, for a method the upstream is not sent (by default all but GET and HEAD)', async () => {
    // A crawler's URL chooses what the page runs: a render may read the API, never write to it.
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'patch', 'OPTIONS', 'PURGE']) {
      const answer = await answerAsync(gate, job, ask('https://example.com/api/books/1', method), job.signal);
      expect(text(answer)).toBe('405 ');
      expect(answer?.headers).toEqual([['allow', 'GET, HEAD']]);
    }
    expect(seen).toEqual([]);
    expect(text(await answerAsync(gate, job, ask('https://example.com/api/books/1', 'HEAD'), job.signal))).toBe('200 ');
    expect(seen).toEqual([{ url: '/api/books/1', host: `127.0.0.1:${upstream.port}`, method: 'HEAD' }]);
  });

  it('answers 404 for a same-origin path naming no file when there is no upstream', async () => {
    expect(text(await answerAsync({ ...gate, upstream: null }, job, ask('https://example.com/api/x'), job.signal))).toBe('404 ');
  });
});
