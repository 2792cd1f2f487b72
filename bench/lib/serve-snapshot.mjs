// A child process for the throughput figures: the demo's snapshot handler on its own node:http
// server, and bare node:http servers answering with the very bytes and headers of the same cached
// snapshot, as the ugly URL gets it and as a bot gets it at the clean URL. It prints the ports as
// JSON and serves until its parent ends it, so the load generator (in the parent) does not share
// this process's event loop.
import { createServer, get } from 'node:http';
import { startDemo } from '../../demo/server.mjs';

const demo = await startDemo();
const handler = demo.apps.find((app) => app.base === '/').handler;
const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const served = createServer((req, res) => void handler.node(req, res));
const servedPort = await listen(served);
/**
 * A bare server sending what the handler answers `target` with, byte for byte and header for
 * header: the same names in the same case and order, as autocannon asks (no Accept-Encoding).
 * Date, Connection and Keep-Alive are left to node:http, which writes them for both servers.
 */
async function bareCopy(target, extra = {}) {
  const { rawHeaders, body } = await new Promise((resolve, reject) =>
    get(`http://127.0.0.1:${servedPort}${target}`, { headers: extra }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
    }).on('error', reject),
  );
  const headers = [];
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (!/^(date|connection|keep-alive)$/i.test(rawHeaders[i])) headers.push([rawHeaders[i], rawHeaders[i + 1]]);
  if (headers.some(([name]) => /^content-encoding$/i.test(name))) throw new Error('the bare server must send the same uncompressed bytes');
  return { port: await listen(createServer((req, res) => res.writeHead(200, headers).end(body))), bytes: body.length };
}
const bare = await bareCopy('/books/1?_escaped_fragment_=');
const bot = await bareCopy('/books/1', { 'user-agent': process.env.BOT_AGENT ?? 'Twitterbot/1.0' });
process.stdout.write(
  JSON.stringify({ served: servedPort, bare: bare.port, bytes: bare.bytes, botBare: bot.port, botBytes: bot.bytes }) + '\n',
);
