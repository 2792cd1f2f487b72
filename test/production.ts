// Tests of what a production build does (src/env/dev.ts): `inProduction` runs `f` with NODE_ENV
// "production" and fresh modules, so that what `f` imports reads DEV as false, then puts both back.
import { vi } from 'vitest';

/** Runs `f` as a production build would: NODE_ENV "production", modules imported anew. */
export async function inProduction<T>(f: () => Promise<T>): Promise<T> {
  vi.stubEnv('NODE_ENV', 'production');
  vi.resetModules();
  try {
    return await f();
  } finally {
    vi.unstubAllEnvs();
    vi.resetModules();
  }
}

/** What `f` throws (undefined when it returns). */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  return undefined;
}
