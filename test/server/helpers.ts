// Test helpers: servers on 127.0.0.1 port 0, and a raw HTTP client that sends the request target
// byte for byte (fetch would re-encode it).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on 127.0.0.1. */
export interface Running {
  port: number;
  base: string;
  /** The server itself, for listeners of its own (`upgrade`). */
  server: http.Server;
  close(): Promise<void>;
}

/** Starts `listener` on 127.0.0.1, port 0, taking request heads up to 256 KiB (10 kB fragments, escaped twice). */
export async function listen(listener: http.RequestListener): Promise<Running> {
  const server = http.createServer({ maxHeaderSize: 256 * 1024 }, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An answer as the client saw it. */
export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: Buffer;
}

/** Sends one request with `target` written as is. */
export function request(port: number, target: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: target, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Every header value of a reply, joined, for "never appears in a header" checks. */
export function headerText(reply: Reply): string {
  return Object.entries(reply.headers)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\n');
}

/** Escapes text for the tests' own render hooks (the hooks' job, not the server's). */
export { escapeHtml as esc } from '../../src/server/html/escape.js';
