import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ownMemo } from '../../../src/server/held.js';
import { askOf, responseOf, type Answer } from '../../../src/server/http/exchange.js';
import {
  acceptsGzip,
  ANSWER_BYTES,
  etagOf,
  isNotModified,
  respond as answer,
  type Page,
  type RespondOptions,
} from '../../../src/server/http/respond.js';

const req = (headers: Record<string, string> = {}, method = 'GET') => askOf(new Request('http://localhost/', { method, headers }));
// The answers read back as web Responses: the same object the fetch core returns.
const respond = async (...args: [ReturnType<typeof req>, Page, RespondOptions]) => responseOf(await answer(...args));
const ETAG = '"abc"';
const MODIFIED = Date.UTC(2024, 0, 2, 3, 4, 5, 678);

describe('isNotModified', () => {
  it.each([
    [{ 'if-none-match': '"abc"' }, true],
    [{ 'if-none-match': 'W/"abc"' }, true],
    [{ 'if-none-match': '"x", "abc"' }, true],
    // The gzip variant's tag: not the plain answer's (see the zip case below).
    [{ 'if-none-match': '"abc-gz"' }, false],
    [{ 'if-none-match': '*' }, true],
    [{ 'if-none-match': '"abcd"' }, false],
    [{ 'if-none-match': 'abc' }, false],
    [{ 'if-modified-since': new Date(MODIFIED).toUTCString() }, true],
    [{ 'if-modified-since': new Date(MODIFIED + 60_000).toUTCString() }, true],
    [{ 'if-modified-since': new Date(MODIFIED - 1000).toUTCString() }, false],
    [{ 'if-modified-since': 'not a date' }, false],
    // Only an HTTP-date counts (RFC 9110 §13.1.3: any other value is ignored), in its three forms
    // (§5.6.7): text Date.parse reads leniently, or two dates joined, are no date.
    [{ 'if-modified-since': 'tomorrow 2100' }, false],
    [{ 'if-modified-since': '9999' }, false],
    [{ 'if-modified-since': '2100-01-01T00:00:00Z' }, false],
    [{ 'if-modified-since': `${new Date(MODIFIED + 60_000).toUTCString()}, ${new Date(MODIFIED - 1000).toUTCString()}` }, false],
    [{ 'if-modified-since': 'Tuesday, 02-Jan-24 03:05:05 GMT' }, true],
    [{ 'if-modified-since': 'Tue Jan  2 03:05:05 2024' }, true],
    [{ 'if-modified-since': 'Tue Jan  2 03:04:04 2024' }, false],
    // A date later than now is ignored: a client's wrong clock never pins its copy as current.
    [{ 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' }, false],
    [{ 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() }, false],
    // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
    [{ 'if-none-match': '"other"', 'if-modified-since': new Date(MODIFIED + 60_000).toUTCString() }, false],
    [{}, false],
  ])('%o gives %s', (headers, expected) => {
    expect(isNotModified(req(headers), ETAG, MODIFIED)).toBe(expected);
  });

  it('takes either variant’s tag for the gzip answer, the same content', () => {
    expect(isNotModified(req({ 'if-none-match': '"abc-gz"' }), ETAG, MODIFIED, true)).toBe(true);
    expect(isNotModified(req({ 'if-none-match': '"abc"' }), ETAG, MODIFIED, true)).toBe(true);
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['gzip;q=0', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['identity', false],
    ['', false],
  ])('%j gives %s', (header, expected) => {
    expect(acceptsGzip(req(header ? { 'accept-encoding': header } : {}))).toBe(expected);
  });
});

describe('respond', () => {
  const body = '<!DOCTYPE html><p>' + 'snapshot '.repeat(200) + '</p>';
  const page = { status: 200, body, etag: etagOf(body), lastModified: MODIFIED, cacheControl: 'public, max-age=60' };

  it('sets type, length, validators, cache control and Vary', async () => {
    const res = await respond(req(), page, { compress: true });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.headers)).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'public, max-age=60',
      etag: page.etag,
      'last-modified': 'Tue, 02 Jan 2024 03:04:05 GMT',
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
    });
    expect(await res.text()).toBe(body);
  });

  it('gzips for clients that accept it, with its own ETag and length', async () => {
    const res = await respond(req({ 'accept-encoding': 'gzip' }), page, { compress: true, memo: page });
    const zipped = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).toBe(page.etag.slice(0, -1) + '-gz"');
    expect(res.headers.get('content-length')).toBe(String(zipped.byteLength));
    expect(gunzipSync(zipped).toString()).toBe(body);
  });

  it('sends small bodies and uncompressed handlers as they are, without Vary when compress is off', async () => {
    const small = await respond(req({ 'accept-encoding': 'gzip' }), { ...page, body: 'x', etag: etagOf('x') }, { compress: true });
    expect(small.headers.get('content-encoding')).toBeNull();
    const off = await respond(req({ 'accept-encoding': 'gzip' }), page, { compress: false });
    expect(off.headers.get('content-encoding')).toBeNull();
    expect(off.headers.get('vary')).toBeNull();
  });

  it('answers 304 with the validators and no body', async () => {
    const res = await respond(req({ 'if-none-match': page.etag }), page, { compress: true });
    expect(res.status).toBe(304);
    expect(Object.fromEntries(res.headers)).toEqual({
      'cache-control': 'public, max-age=60',
      etag: page.etag,
      'last-modified': 'Tue, 02 Jan 2024 03:04:05 GMT',
      vary: 'Accept-Encoding',
    });
    expect(await res.text()).toBe('');
  });

  it('answers 200 with the plain body to a client that cannot read gzip but holds the gzip variant’s tag', async () => {
    const zipped = await respond(req({ 'accept-encoding': 'gzip' }), page, { compress: true });
    const tag = zipped.headers.get('etag') as string;
    const again = await respond(req({ 'accept-encoding': 'gzip', 'if-none-match': tag }), page, { compress: true });
    expect(again.status).toBe(304);
    const plain = await respond(req({ 'if-none-match': tag }), page, { compress: true });
    expect([plain.status, plain.headers.get('content-encoding'), plain.headers.get('etag')]).toEqual([200, null, page.etag]);
    expect(await plain.text()).toBe(body);
  });

  it('never answers 304 for a page that is not a 200', async () => {
    const res = await respond(req({ 'if-none-match': '*' }), { ...page, status: 404 }, { compress: false });
    expect(res.status).toBe(404);
  });

  it('sends the GET headers and no body for HEAD', async () => {
    const res = await respond(req({}, 'HEAD'), page, { compress: false });
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(await res.text()).toBe('');
  });

  it('answers at once (no promise) but while a gzipped body is first made, and then at once from the memo', async () => {
    const memo = {};
    ownMemo(memo, () => true);
    const plain = answer(req(), page, { compress: true, memo });
    expect(plain).not.toBeInstanceOf(Promise);
    expect(answer(req({ 'if-none-match': page.etag }), page, { compress: true, memo })).toMatchObject({ status: 304 });
    const first = answer(req({ 'accept-encoding': 'gzip' }), page, { compress: true, memo });
    expect(first).toBeInstanceOf(Promise);
    const zipped = await first;
    const again = answer(req({ 'accept-encoding': 'gzip' }), page, { compress: true, memo });
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ status: 200, body: zipped.body });
  });

  /** A memo whose owner counts what is kept on it, up to `limit` bytes. */
  const counted = (limit = Infinity) => {
    const memo = {};
    const charges: number[] = [];
    let held = 0;
    ownMemo(memo, (bytes) => {
      if (held + bytes > limit) return false;
      held += bytes;
      // 0 asks whether it keeps anything on the memo at all (a gzip shared while it is made).
      if (bytes) charges.push(bytes);
      return true;
    });
    return { memo, charges, held: () => held };
  };
  // What an answer costs beside its body: its header text and its objects.
  const headerText = (headers: Record<string, string>) =>
    Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length, ANSWER_BYTES);

  it("tells the memo's owner each answer's bytes once, the body once for both variants", async () => {
    const { memo, charges, held } = counted();
    const ugly = answer(req(), page, { compress: true, memo }) as Answer;
    const clean = answer(req(), { ...page, vary: 'User-Agent' }, { compress: true, memo, variant: 1 }) as Answer;
    const zipped = await answer(req({ 'accept-encoding': 'gzip' }), page, { compress: true, memo });
    const cleanZipped = await answer(
      req({ 'accept-encoding': 'gzip' }),
      { ...page, vary: 'User-Agent' },
      { compress: true, memo, variant: 1 },
    );
    const size = (a: Answer) => (a.body as Uint8Array).byteLength;
    expect(clean.body).toBe(ugly.body);
    expect(cleanZipped.body).toBe(zipped.body);
    expect(cleanZipped.headers['Vary']).toBe('User-Agent, Accept-Encoding');
    expect(charges).toEqual([
      size(ugly) + headerText(ugly.headers),
      headerText(clean.headers),
      size(zipped) + headerText(zipped.headers),
      headerText(cleanZipped.headers),
    ]);
    // Kept: asking again charges nothing more, and answers at once.
    for (const variant of [0, 1] as const)
      for (const encoding of ['gzip', 'identity'])
        expect(answer(req({ 'accept-encoding': encoding }), page, { compress: true, memo, variant })).not.toBeInstanceOf(Promise);
    expect(charges).toHaveLength(4);
    expect(held()).toBe(charges.reduce((a, b) => a + b, 0));
  });

  it('keeps nothing on a memo whose owner refuses, or that has no owner: each request prepares its own', async () => {
    const refused = counted(100);
    const stray = {};
    for (const memo of [refused.memo, stray]) {
      const one = answer(req(), page, { compress: true, memo }) as Answer;
      const two = answer(req(), page, { compress: true, memo }) as Answer;
      expect(two.body).not.toBe(one.body);
      expect(two.body).toEqual(one.body);
      const zipped = answer(req({ 'accept-encoding': 'gzip' }), page, { compress: true, memo });
      expect(zipped).toBeInstanceOf(Promise);
      await zipped;
      expect(answer(req({ 'accept-encoding': 'gzip' }), page, { compress: true, memo })).toBeInstanceOf(Promise);
    }
    expect(refused.held()).toBe(0);
  });

  it('shares one gzip between the requests that want it meanwhile, and charges it once', async () => {
    const { memo, charges } = counted();
    const [a, b] = await Promise.all([0, 1].map(async () => answer(req({ 'accept-encoding': 'gzip' }), page, { compress: true, memo })));
    expect(a?.body).toBe(b?.body);
    expect(charges).toHaveLength(1);
  });

  it('gives every body its own strong ETag', () => {
    expect(etagOf('a')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf('a')).not.toBe(etagOf('b'));
    expect(etagOf('é')).toBe(etagOf('é'));
  });
});
