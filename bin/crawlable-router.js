#!/usr/bin/env node
// The `crawlable-router` command: all of it is in dist/cli/index.js; this file only runs it.
import { run } from '../dist/cli/index.js';

process.exitCode = await run(process.argv.slice(2));
