// What a page script could try had it climbed out of happy-dom's VM context into its page process,
// with a stronger hand than it would have (this file imports modules; a page cannot): run under the
// page process's own flags (pageProcessFlags) after the page process's own harden(). Prints what
// each attempt got, as JSON. In: argv[2], JSON { secret, marker, port, parent }.
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { harden } from '../../../dist/server/headless/harden.js';

harden();
const { secret, marker, port, parent } = JSON.parse(process.argv[2]);
const tried = {};
const refusal = (error) => `refused: ${error.code ?? error.name}`;
const sync = (name, attempt) => {
  try {
    attempt();
    tried[name] = 'done';
  } catch (error) {
    tried[name] = refusal(error);
  }
};
const later = (name, attempt) =>
  new Promise((resolve) => {
    try {
      const handle = attempt();
      handle.on('error', (error) => resolve((tried[name] = refusal(error))));
      handle.on('connect', () => resolve((tried[name] = 'connected')));
      handle.on('response', () => resolve((tried[name] = 'answered')));
    } catch (error) {
      resolve((tried[name] = refusal(error)));
    }
  });
const absent = (name, value) => (tried[name] = value === undefined ? 'absent' : 'present');

sync('Function from a string', () => Function('return process')());
sync('read a file outside', () => fs.readFileSync(secret, 'utf8'));
sync('tell a file outside exists', () => fs.realpathSync(secret));
sync('write a file', () => fs.writeFileSync(marker, 'pwned'));
sync('start a process', () => childProcess.execFileSync('true'));
sync('start a worker', () => new Worker('1', { eval: true }));
await later('connect over TCP', () => net.connect(port, '127.0.0.1'));
await later('http request', () => http.get(`http://127.0.0.1:${port}/`));
sync('listen', () => net.createServer().listen(0));
sync('send a datagram', () => dgram.createSocket('udp4').send('x', port, '127.0.0.1'));
absent('global fetch', globalThis.fetch);
absent('process.getBuiltinModule', process.getBuiltinModule);
absent('process.binding', process.binding);
absent('process.dlopen', process.dlopen);
absent('process.kill (the server)', process.kill);
absent('process._debugProcess (the server)', process._debugProcess);
absent('process.report (the command line, the host)', process.report);
sync('renice the server', () => os.setPriority(parent, 19));
process.stdout.write(JSON.stringify(tried));
