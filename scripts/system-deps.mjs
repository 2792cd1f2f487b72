#!/usr/bin/env node
// The system programs the tests drive for real: Debian's Chromium (through playwright-core, which
// never downloads a browser of its own), Debian's Firefox ESR (through puppeteer-core over WebDriver
// BiDi, likewise) and Debian's redis-server (started by the fleet tests on 127.0.0.1). Run before
// every `npm test`: a program that is missing is installed with apt-get when this process may
// (root, apt-get present); otherwise it stops naming the one command to run.

import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Each program: where it is looked for and the Debian package that provides it. */
const programs = [
  { name: 'Chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium' },
  { name: 'Firefox', path: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', pkg: 'firefox-esr' },
  { name: 'redis-server', path: process.env.REDIS_SERVER_PATH ?? onPath('redis-server'), pkg: 'redis-server' },
];

function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, command);
    if (executable(candidate)) return candidate;
  }
  return `/usr/bin/${command}`;
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const missing = programs.filter((p) => !executable(p.path));
if (missing.length === 0) process.exit(0);

const packages = missing.map((p) => p.pkg);
const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
const names = missing.map((p) => `${p.name} (${p.path})`).join(' and ');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

if (!isRoot || !hasApt) {
  console.error(`The tests need ${names}, which ${missing.length > 1 ? 'are' : 'is'} missing. Install with:\n\n  sudo ${command}\n`);
  process.exit(1);
}

console.error(`The tests need ${names}: installing with apt-get (${packages.join(', ')}).`);
try {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env });
} catch (error) {
  console.error(`Installing ${packages.join(', ')} failed (${error.message}). Run:\n\n  ${command}\n`);
  process.exit(1);
}
const still = missing.filter((p) => !executable(p.path));
if (still.length > 0) {
  console.error(
    `${still.map((p) => p.path).join(', ')} still missing after apt-get; set CHROMIUM_PATH / FIREFOX_PATH / REDIS_SERVER_PATH.`,
  );
  process.exit(1);
}
