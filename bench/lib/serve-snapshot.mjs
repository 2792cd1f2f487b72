// A child process for the throughput figures: the demo's snapshot handler on its own node:http
// server, and bare node:http servers answering with the very bytes and headers of the same cached
// snapshot, as the ugly URL gets it and as a bot gets it at the clean URL. It prints both ports as JSON and serves until its parent ends it, so the load generator
// (in the parent) does not share this process's event loop.
import { createServer } from 'node:http';
import { startDemo } from '../../demo/server.mjs';

const demo = await startDemo();
const handler = demo.apps.find((app) => app.base === '/').handler;
const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const served = createServer((req, res) => void handler.node(req, res));
const servedPort = await listen(served);
// Asked as autocannon asks (no Accept-Encoding): the answer the load will get, byte for byte.
/** A bare server sending what the handler answers `target` with, byte for byte and header for header. */
async function bareCopy(target, extra = {}) {
  const answer = await fetch(`http://127.0.0.1:${servedPort}${target}`, { headers: { 'accept-encoding': 'identity', ...extra } });
  if (answer.headers.has('content-encoding')) throw new Error('the bare server must send the same uncompressed bytes');
  const body = Buffer.from(await answer.arrayBuffer());
  const headers = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  return { port: await listen(createServer((req, res) => res.writeHead(200, headers).end(body))), bytes: body.length };
}
const bare = await bareCopy('/books/1?_escaped_fragment_=');
const bot = await bareCopy('/books/1', { 'user-agent': process.env.BOT_AGENT ?? 'Twitterbot/1.0' });
process.stdout.write(
  JSON.stringify({ served: servedPort, bare: bare.port, bytes: bare.bytes, botBare: bot.port, botBytes: bot.bytes }) + '\n',
);
