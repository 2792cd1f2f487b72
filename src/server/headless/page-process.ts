// One page process (headless/child.ts) as the server sees it: started in the isolation the OS
// allows (isolation.ts) under Node's permission model (flags.ts), talked to over fd 3 in frames of
// at most `limit` bytes (frames.ts), with the synchronous requests' pipe on fd 4. Everything it
// says is untrusted: a frame past the limit, or one that is not a message, and it is killed.
// It renders one page, then it is killed: nothing a page does outlives its render.

import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { frameReader, HEAD_LIMIT, writeFrame } from './frames.js';
import { isolation } from './isolation.js';
import { printable } from '../printable.js';
import { SYNC_FD, type FromChild, type ToChild } from './protocol.js';

/** A started page process. */
export interface PageProcess {
  /** Resolves once it has loaded happy-dom and waits for its page; rejects if it could not. */
  readonly ready: Promise<void>;
  /** Its process id (of `unshare` where it runs in namespaces), for the memory watch. */
  readonly pid: number | undefined;
  /** Its pipe for synchronous requests. */
  readonly syncPipe: Readable & Writable;
  /** True once it has exited or been killed. */
  readonly dead: boolean;
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>;
  /** Sends a message: true once it has gone, false if the process is gone. */
  send(message: ToChild): Promise<boolean>;
  /** Stops reading its messages until `resume()` (the server holds what it was sent, not more). */
  pause(): void;
  resume(): void;
  /** Keeps the server's event loop alive while it renders; an idle one never does. */
  hold(holding: boolean): void;
  /** Kills it at once; `why` is what its page's render is told. */
  kill(why: string): void;
}

/** What a page process tells its owner. */
export interface ProcessEvents {
  message(message: FromChild): void;
  /** Once: it exited, was killed, or broke the protocol; `why` says which. */
  ended(why: string): void;
}

/**
 * Why a page process died, from the end of its stderr: the error's line (Node ends a crash with
 * its stack and its own version), and the file an access the permission model refused names.
 */
export function deathCause(stderr: string): string {
  if (/heap out of memory/i.test(stderr)) return 'JavaScript heap out of memory';
  const lines = stderr.split('\n').map((l) => l.trim());
  const said = lines.filter((l) => l && !/ExperimentalWarning|--trace-warnings|^Node\.js v\d|^at |^[{}^]$/.test(l));
  const error = said.filter((l) => /^[\w.]*Error\b/.test(l)).at(-1) ?? said.at(-1);
  const resource = said.find((l) => l.startsWith('resource: '));
  return error ? printable(error + (resource ? ` (${resource})` : '')) : 'no reason given';
}

/** Starts a page process running Node with `args`; its frames may be `limit` bytes long at most. */
export function startPageProcess(args: string[], limit: number, events: ProcessEvents): PageProcess {
  const { command, prefix } = isolation();
  const proc: ChildProcess = spawn(command, [...prefix, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env: {} });
  const channel = proc.stdio[3] as Readable & Writable;
  const syncPipe = proc.stdio[SYNC_FD] as Readable & Writable;
  let stderr = '';
  let dead = false;
  let onReady!: () => void;
  let onFail!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => ((onReady = resolve), (onFail = reject)));
  ready.catch(() => {});
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  function end(why: string): void {
    if (dead) return;
    dead = true;
    proc.kill('SIGKILL');
    channel.destroy();
    syncPipe.destroy();
    onFail(new Error(why));
    events.ended(why);
  }

  const read = frameReader(
    limit + HEAD_LIMIT,
    (message) => {
      if (dead) return;
      if ((message as { type?: unknown } | null)?.type === 'ready') return onReady();
      events.message(message as FromChild);
    },
    (why) => end(`broke the protocol (${why}) and was stopped`),
  );
  channel.on('data', read);
  channel.on('error', () => {});
  syncPipe.on('error', () => {});
  proc.stderr?.setEncoding('utf8').on('data', (text: string) => void (stderr = (stderr + text).slice(-2000)));
  proc.on('error', (error) => end(error.message));
  proc.on('exit', (code, signal) => end(`${deathCause(stderr)} (${signal ?? `exit code ${String(code)}`})`));

  const handles = [proc, channel, syncPipe, proc.stderr] as Array<{ ref?: () => void; unref?: () => void } | null>;
  const hold = (holding: boolean) => {
    for (const handle of handles) (holding ? handle?.ref : handle?.unref)?.call(handle);
  };
  hold(false);

  return {
    ready,
    pid: proc.pid,
    syncPipe,
    exited: proc.pid === undefined ? Promise.resolve() : exited,
    get dead() {
      return dead;
    },
    async send(message) {
      return !dead && (await writeFrame(channel, message)) && !dead;
    },
    pause: () => channel.pause(),
    resume: () => channel.resume(),
    hold,
    kill: end,
  };
}
