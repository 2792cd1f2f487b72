import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The built types as an app with the strictest settings compiles them: test/types/exact/ is such an
// app (its tsconfig.json: `strict`, `exactOptionalPropertyTypes`), whose `crawlable-router` imports
// are the package itself through its exports map (dist/, as `npm run build` leaves it). Its files
// give every documented option a value that may be undefined (an environment variable, a field of
// the app's own optional config), which the runtime takes as the option left out. The project's own
// tsconfig.json has the flag off (and excludes that folder), so only this compile sees it.

const CONFIG = path.resolve('test/types/exact/tsconfig.json');

describe('the built types under exactOptionalPropertyTypes', () => {
  it('take undefined for every optional option of every entry, as the runtime does', () => {
    const { config, error } = ts.readConfigFile(CONFIG, (file) => ts.sys.readFile(file));
    expect(error).toBeUndefined();
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(CONFIG));
    expect(parsed.options.exactOptionalPropertyTypes).toBe(true);
    expect(parsed.fileNames.map((file) => path.basename(file)).sort()).toEqual(['app.ts', 'react.tsx']);
    const program = ts.createProgram(parsed.fileNames, parsed.options);
    // Every import of the package resolved to the build's declaration files, not the sources.
    const declarations = program.getSourceFiles().filter((file) => file.fileName.startsWith(path.resolve('dist') + path.sep));
    expect(declarations.map((file) => path.relative('dist', file.fileName)).sort()).toEqual([
      'client.d.ts',
      'client/lite.d.ts',
      'index.d.ts',
      'react.d.ts',
      'react/server.d.ts',
      'server.d.ts',
      'vite.d.ts',
    ]);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const file = d.file ? `${path.relative(process.cwd(), d.file.fileName)}:${(where?.line ?? 0) + 1}: ` : '';
      return file + ts.flattenDiagnosticMessageText(d.messageText, '\n');
    });
    expect(problems).toEqual([]);
  }, 120_000); // A whole program with React's, Node's and Vite's types: seconds alone, a minute beside other test files.
});
