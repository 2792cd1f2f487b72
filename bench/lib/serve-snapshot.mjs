// A child process for the throughput figure: the demo's snapshot handler on its own node:http
// server, and a bare node:http server answering with the very bytes and headers of the same cached
// snapshot. It prints both ports as JSON and serves until its parent ends it, so the load generator
// (in the parent) does not share this process's event loop.
import { createServer } from 'node:http';
import { startDemo } from '../../demo/server.mjs';

const demo = await startDemo();
const handler = demo.apps.find((app) => app.base === '/').handler;
const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const served = createServer((req, res) => void handler.node(req, res));
const servedPort = await listen(served);
// Asked as autocannon asks (no Accept-Encoding): the answer the load will get, byte for byte.
const answer = await fetch(`http://127.0.0.1:${servedPort}/books/1?_escaped_fragment_=`, { headers: { 'accept-encoding': 'identity' } });
if (answer.headers.has('content-encoding')) throw new Error('the bare server must send the same uncompressed bytes');
const body = Buffer.from(await answer.arrayBuffer());
const headers = {};
answer.headers.forEach((value, name) => (headers[name] = value));
const bare = createServer((req, res) => res.writeHead(200, headers).end(body));
const barePort = await listen(bare);
process.stdout.write(JSON.stringify({ served: servedPort, bare: barePort, bytes: body.length }) + '\n');
