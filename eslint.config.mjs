import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// A few rules that catch bugs, no style: prettier owns the layout (npm run format:check) and tsc
// the types (npm run typecheck). TypeScript files are linted with their types, so a promise left
// unawaited is seen; the JavaScript of bench/, demo/ and scripts/ gets the rules that need none.
export default defineConfig(
  { ignores: ['dist/', 'examples/*/dist/', 'coverage/', '.vitest-temp/', 'demo/public/'] },
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `a == b` coerces; kept only where it cannot: `x == null` (null or undefined), typeof's strings.
      eqeqeq: ['error', 'smart'],
      // A statement that computes and drops a value is usually a call or an assignment gone missing;
      // `a && f()` and `c ? f() : g()` are calls. A comma sequence is not taken: write statements.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // tsc's noUnusedLocals and noUnusedParameters cover TypeScript's locals and parameters, but not
      // a catch clause's binding (write `catch {}`), an `infer` of a type, nor the JavaScript files.
      // A leading _ says unused on purpose, as tsc takes it; `{ x: _, ...rest }` leaves x out.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'all' },
      ],
    },
  },
  {
    files: ['**/*.{ts,mts,cts}'],
    // Outside tsconfig.json (src, test, bench, demo), and no promise in them: a program of their own,
    // vite's types and all, would add some 10 s of CPU to the run.
    ignores: ['vitest.config.ts', 'types/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its rejection and races what follows (an unawaited
      // `expect(...).rejects` passes whatever happens); `void` marks the few meant to run on.
      '@typescript-eslint/no-floating-promises': 'error',
      // An async function where a void callback is expected (an event listener, forEach) drops its
      // rejection; a promise in an `if` is always true.
      '@typescript-eslint/no-misused-promises': 'error',
      // Awaiting what is not a promise is a leftover of an API that stopped being async.
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
