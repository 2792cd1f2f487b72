#!/usr/bin/env node
// What `npm test` runs before vitest, in two steps of commands run at once: each command is mostly
// one thread, and the suite is measured on two cores. A step starts when the one before has passed
// (lint and typecheck:core read the build's types, the demo builds from dist/). Each command's
// output is printed whole as it ends; the first that fails fails the run, once its step has ended.
// Lint type-checks the project (`--type-check`: TypeScript 7's checker, which oxlint-tsgolint runs
// for its typed rules anyway). `npm run typecheck` is the same check by tsc 5.9 at several times the
// CPU; only its core part runs here: lint reads the core's files under tsconfig.json, with the DOM.

import { spawn } from 'node:child_process';

const steps = [
  ['npm run format:check', 'node scripts/system-deps.mjs', 'npm run build'],
  ['node demo/build.mjs', 'npm run lint', 'npm run typecheck:core'],
];

/** Runs `command` (words split on spaces) and resolves with its exit code, printing its output when it ends. */
function run(command) {
  const [file, ...args] = command.split(' ');
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['inherit', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      process.stdout.write(`\n$ ${command}\n${Buffer.concat(output).toString()}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

for (const step of steps) {
  const codes = await Promise.all(step.map(run));
  const failed = step.filter((_, at) => codes[at] !== 0);
  if (failed.length > 0) {
    console.error(`\npretest: ${failed.join(', ')} failed`);
    process.exit(1);
  }
}
