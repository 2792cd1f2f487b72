import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A small hashbang site with one of each fault the crawler must report.
const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const snapshots: Record<string, [number, string, string?]> = {
  '': [
    200,
    page(
      '<title>Home</title><link rel="canonical" href="/">',
      '<a href="#!/a">a</a> <a href="#!/missing">gone</a> <a href="?_escaped_fragment_=/b">ugly</a> <a href="https://other.test/#!/x">out</a> <a href="mailto:x@y.z">mail</a>',
    ),
  ],
  '/a': [
    200,
    page(
      '<title>A</title><link rel="canonical" href="/#!/a">',
      '<a href="#!/b">b</a> <a href="/plain.html">plain</a> <a href="/meta404.html#top">meta</a> <a href="#!/u">u</a> <a href="#!/boom">boom</a> <a href="/gone.html">gone</a> <a href="/meta500.html">meta500</a> <a href="#!/old">old</a> <a href="#!/away">away</a>',
    ),
  ],
  '/b': [200, page('<title>B</title>', '<a href="#!/a">back</a> <a href="#!/v">v</a>')],
  '/v': [200, page('<title>V</title><link rel="canonical" href="http://[v">', '<a href="#!/a">a</a>')],
  '/u': [200, page('<title>U</title><link rel="canonical" href="/?_escaped_fragment_=/u">', '')],
  '/missing': [404, page('<title>Not found</title>', 'no such state')],
  '/boom': [500, 'oops'],
  // A moved state (its target in the ugly form, as the snapshot handler writes it) and one that leaves the site.
  '/old': [301, 'moved', '/?_escaped_fragment_=/a'],
  '/away': [302, 'moved', 'https://other.test/x'],
};

/** Starts the fixture site on 127.0.0.1 (a port the OS picks); resolves to its origin and a close(). */
export async function startSite(): Promise<{ origin: string; close: () => Promise<void> }> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, body: string, type = 'text/html; charset=utf-8') =>
      res.writeHead(status, { 'content-type': type }).end(body);
    if (url.pathname === '/robots.txt') return send(200, `User-agent: *\nSitemap: ${origin}/sitemap.xml\n`, 'text/plain');
    if (url.pathname === '/sitemap.xml') {
      return send(
        200,
        `<?xml version="1.0"?><urlset><url><loc>${origin}/#!/a</loc></url><url><loc>${origin}/?_escaped_fragment_=/c&amp;x=1</loc></url>` +
          `<url><loc>${origin}/#!/old</loc></url><url><loc>${origin}/#!/missing</loc></url></urlset>`,
        'application/xml',
      );
    }
    if (url.pathname === '/plain.html') return send(200, page('<title>Plain</title>', '<meta name="fragment" content="!"><p>plain</p>'));
    if (url.pathname === '/gone.html') return send(404, page('<meta name="fragment" content="!"><title>Gone</title>', 'gone'));
    if (url.pathname === '/meta500.html')
      return url.searchParams.has('_escaped_fragment_') ? send(500, 'oops') : send(200, page('<meta name="fragment" content="!">', ''));
    if (url.pathname === '/meta404.html')
      return url.searchParams.has('_escaped_fragment_') ? send(404, 'none') : send(200, page('<meta name="fragment" content="!">', ''));
    const fragment = url.searchParams.get('_escaped_fragment_');
    if (url.pathname === '/' && fragment !== null) {
      const [status, body, location] = snapshots[fragment] ?? [404, 'unknown'];
      if (location) res.setHeader('location', location);
      return send(status, body);
    }
    if (url.pathname === '/')
      return send(200, page('<meta name="fragment" content="!"><title>App</title>', '<script src="/app.js"></script>'));
    return send(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
