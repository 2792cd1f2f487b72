// What a page process gives up before any page runs (headless/child.ts calls it first): Node's
// permission model (its flags in headless/pool.ts) closes the file system, child processes, workers
// and addons, but on Node 20 not the network, so this closes it: a socket's connect fails as a
// refused connection does (WebSocket, http, https, tls and fetch all connect through net.Socket),
// nothing may listen or send datagrams, and the doors from `process` to other modules and to other
// processes (getBuiltinModule, binding, dlopen, kill, _debugProcess, os.setPriority) are removed. Where the OS
// allows, namespaces close the same doors below Node (isolation.ts). Two gaps of Node 20's model are
// closed here too: `fs.realpathSync` answered for any path (its JavaScript walk stats each part
// unchecked: a page told a file outside from one that does not exist), and `process.report` hands
// out the command line (every path the process may read) and the host's name and kernel.

import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Takes away every network and module door this process has, before any page can run. */
export function harden(): void {
  const refused = () => Object.assign(new Error('a headless page has no network of its own'), { code: 'EACCES' });
  // WebSocket (happy-dom's uses the ws package), http, https, tls and undici all connect through
  // net.Socket: each attempt fails as a network error, asynchronously, as a refused connection does.
  net.Socket.prototype.connect = function (this: net.Socket) {
    process.nextTick(() => this.destroy(refused()));
    return this;
  } as typeof net.Socket.prototype.connect;
  net.Server.prototype.listen = function () {
    throw refused();
  } as typeof net.Server.prototype.listen;
  for (const name of ['bind', 'connect', 'send'] as const) {
    dgram.Socket.prototype[name] = function () {
      throw refused();
    } as never;
  }
  // Another process's priority is not this one's to change (the server's, say); where no PID
  // namespace hides the others (isolation.ts), this is what stands in the way.
  os.setPriority = () => {
    throw refused();
  };
  // What the process may not read, it may not resolve either; Node's own loader still resolves the
  // packages it may read through this function.
  const realpathSync = fs.realpathSync;
  const resolve = function (file: fs.PathLike, options?: unknown) {
    const name = path.resolve(file instanceof URL ? fileURLToPath(file) : String(file));
    if (!process.permission.has('fs.read', name))
      throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED', resource: name });
    return realpathSync(file, options as fs.EncodingOption);
  };
  fs.realpathSync = Object.assign(resolve, { native: realpathSync.native }) as typeof fs.realpathSync;
  const doors = process as unknown as Record<string, unknown>;
  for (const name of [
    'getBuiltinModule',
    'binding',
    '_linkedBinding',
    'dlopen',
    'kill',
    '_kill',
    '_debugProcess',
    'mainModule',
    'report',
  ]) {
    if (!Reflect.deleteProperty(doors, name)) Object.defineProperty(doors, name, { value: undefined });
  }
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'Request', 'Response'])
    Reflect.deleteProperty(globalThis, name);
}
