// What the commands share: where they read and write, the exit codes, the two errors that pick an
// exit code, reading arguments (with `-h`/`--help`), the check of a whole-number argument, and the
// `--json` report's text.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ProgressStream } from '../server/index.js';
import type { TextReader } from '../verify/crawl.js';

/** Where the command reads and writes. */
export interface CliIo {
  /** Results (the `--json` report). */
  stdout: ProgressStream;
  /** Progress, errors and help. */
  stderr: ProgressStream;
  /** The folder relative paths start from. */
  cwd: string;
  /** Starts the browser for `verify --browser`. Default Debian's Chromium through playwright-core. */
  browser?: () => Promise<TextReader>;
}

/** Exit codes: what happened. */
export const EXIT = {
  /** Everything was done. */
  OK: 0,
  /** The command ran, but some states failed. */
  FAILURES: 1,
  /** Bad arguments: nothing was done. */
  USAGE: 2,
  /** The command could not start: a module, file or folder it needs is unusable. */
  SETUP: 3,
  /** An unexpected error (a bug): the message says where. */
  ERROR: 4,
} as const;

/** Bad arguments: exit 2, with a pointer to the command's help. */
export class UsageError extends Error {}
/** Something the command needs is unusable: exit 3. */
export class SetupError extends Error {}

/** One command of the table. */
export interface Command {
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/** A whole-number argument above 0, or `fallback` when it was not given. */
export function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a whole number above 0, got ${JSON.stringify(value)}`);
  return Number(value);
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * A command's arguments, strictly (an unknown option is a usage error), with `-h`/`--help` added;
 * null when help was asked for, the command's usage then written to stdout.
 */
export function readArgs<const O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
  usage: string,
  io: CliIo,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: boolean; options: O & typeof HELP }>> | null {
  const parsed = parseArgs({ args, strict: true, allowPositionals, options: { ...options, ...HELP } });
  // `help` is one of the options parsed; the generic type cannot see it through the spread.
  if (!(parsed.values as { help?: boolean }).help) return parsed;
  io.stdout.write(usage + '\n');
  return null;
}

/**
 * The `--json` report: JSON whose text holds no control character, so a terminal it is printed on
 * meets no escape sequence a crawled site or an app's error wrote. JSON escapes C0 itself; DEL and
 * C1 (`\x9b` starts a sequence on some terminals) are written as `\u` escapes too, which parse back alike.
 */
export function jsonReport(report: unknown): string {
  return JSON.stringify(report, null, 2).replace(/[\x7f-\x9f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}
