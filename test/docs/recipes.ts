// Recipes of the docs, run as printed: a page's fenced code blocks are read out of its markdown,
// each written to the file its first line names (`// server.js`) in a folder of its own, and
// imported there as a reader's app would run it, against the built package.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A fenced code block of a page. */
export interface Recipe {
  /** Its language, as the fence names it (`js`, `jsx`: vitest compiles a `.jsx` file as Vite does). */
  lang: string;
  /** The file its first line names (`// server.js: …` names `server.js`). */
  file: string;
  /** Its text, as printed. */
  code: string;
}

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm;
const HEADING = /^#{1,6} (.*)$/gm;
const FILE = /^\/\/ ([\w./-]+\.(?:m?js|jsx))\b/;

/** The page's text, from the repository's root. */
export const readDoc = (page: string): string => readFileSync(page, 'utf8');

/** The page's headings, in order, as written (backticks and all). */
export const headingsOf = (markdown: string): string[] => [...markdown.matchAll(HEADING)].map((m) => m[1] as string);

/** The text under `heading`, to the next heading of any level (so a section's subsections are their own). */
export function sectionOf(markdown: string, heading: string): string {
  const starts = [...markdown.matchAll(HEADING)];
  const at = starts.findIndex((m) => m[1] === heading);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const from = (starts[at]?.index ?? 0) + (starts[at]?.[0].length ?? 0);
  return markdown.slice(from, starts[at + 1]?.index ?? markdown.length);
}

/** Every fenced code block of `text`. */
export function blocksOf(text: string): { lang: string; code: string }[] {
  return [...text.matchAll(FENCE)].map((m) => ({ lang: m[1] as string, code: m[2] as string }));
}

/** The JavaScript (and JSX) recipes under `heading`, each with the file its first line names. */
export function recipesUnder(markdown: string, heading: string): Recipe[] {
  return blocksOf(sectionOf(markdown, heading))
    .filter((block) => block.lang === 'js' || block.lang === 'jsx')
    .map(({ lang, code }) => {
      const file = FILE.exec(code)?.[1];
      if (file === undefined) throw new Error(`a recipe under "${heading}" names no file on its first line: ${code.split('\n')[0]}`);
      return { lang, file, code };
    });
}

/** A folder an app's files are written to and its recipes run in. */
export interface AppFolder {
  dir: string;
  /** Writes a file (its folders made), or a recipe as printed. */
  write(file: string | Recipe, text?: string): void;
  /**
   * Imports a file of the folder afresh (each run is a new module, as a new process would be), with
   * `env` set and the folder as the working directory while its top level runs.
   */
  run<T = Record<string, unknown>>(file: string, env?: Record<string, string | undefined>): Promise<T>;
  /** The module of a file of the folder as its other modules import it (one instance for them all). */
  load<T = Record<string, unknown>>(file: string): Promise<T>;
  remove(): void;
}

// The packages a reader's app would have installed: the library (this repository, built) and the
// dev dependencies the recipes import.
const PACKAGES = ['express', 'redis', 'vite', 'react', 'react-dom'];
let runs = 0;

/** A folder in the system's temp folder with `node_modules` linked to this repository's. */
export function appFolder(files: Record<string, string> = {}): AppFolder {
  const dir = mkdtempSync(path.join(tmpdir(), 'cr-docs-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(process.cwd(), path.join(dir, 'node_modules', 'crawlable-router'), 'dir');
  for (const name of PACKAGES) symlinkSync(path.resolve('node_modules', name), path.join(dir, 'node_modules', name), 'dir');
  const write = (file: string | Recipe, text?: string) => {
    const [name, body] = typeof file === 'string' ? [file, text ?? ''] : [file.file, file.code];
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), body);
  };
  write('package.json', '{ "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) write(name, text);
  return {
    dir,
    write,
    async run<T>(file: string, env: Record<string, string | undefined> = {}) {
      const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
      const cwd = process.cwd();
      const set = (values: Record<string, string | undefined>) => {
        for (const [name, value] of Object.entries(values))
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
      };
      set(env);
      process.chdir(dir);
      try {
        return (await import(`${pathToFileURL(path.join(dir, file)).href}?run=${++runs}`)) as T;
      } finally {
        process.chdir(cwd);
        set(saved);
      }
    },
    async load<T>(file: string) {
      return (await import(pathToFileURL(path.join(dir, file)).href)) as T;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
