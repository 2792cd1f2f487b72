// The `crawlable-router` command. `run(argv)` is the whole program and returns the exit code; the
// bin shim (bin/crawlable-router.js) only calls it. Commands are a table: prerender, sitemap and
// verify, each in its own module under cli/.

import { readFileSync } from 'node:fs';
import { EXIT, SetupError, UsageError, type CliIo, type Command } from './common.js';
import { PRERENDER_USAGE, runPrerender, runSitemap, SITEMAP_USAGE } from './prerender.js';
import { runVerify, VERIFY_USAGE } from './verify.js';

export { EXIT, type CliIo } from './common.js';

const COMMANDS: Record<string, Command> = {
  prerender: { summary: 'render every state to files, plus sitemap.xml', usage: PRERENDER_USAGE, run: runPrerender },
  sitemap: {
    summary: 'write sitemap.xml for the snapshots of sharded prerenders gathered in one folder',
    usage: SITEMAP_USAGE,
    run: runSitemap,
  },
  verify: { summary: "crawl a site as the scheme's crawler does and report what it would miss", usage: VERIFY_USAGE, run: runVerify },
};

const USAGE = `Usage: crawlable-router <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`)
  .join('\n')}

Run 'crawlable-router <command> --help' for a command's options,
'crawlable-router --version' for the version.`;

/** The installed package's version (src/ and dist/ both sit one folder below package.json). */
const version = () => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Runs the command line `argv` (without `node` and the script) and returns the exit code. */
export async function run(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() },
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && args[0] !== undefined ? COMMANDS[args[0]] : undefined;
    (name === undefined ? io.stderr : io.stdout).write((topic?.usage ?? USAGE) + '\n');
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(version() + '\n');
    return EXIT.OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr.write(`crawlable-router: unknown command ${JSON.stringify(name)}\n\n${USAGE}\n`);
    return EXIT.USAGE;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    const usage = error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`crawlable-router ${name}: ${message}\n` + (usage ? `Run 'crawlable-router ${name} --help' for usage.\n` : ''));
    return usage ? EXIT.USAGE : error instanceof SetupError ? EXIT.SETUP : EXIT.ERROR;
  }
}
