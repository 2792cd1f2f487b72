// Types of redis-server.mjs, for the tests written in TypeScript.

/** The command that installs redis-server on Debian. */
export declare const INSTALL: string;

/** A redis-server the test controls. */
export interface RedisServer {
  /** Its port on 127.0.0.1. */
  port: number;
  /** `redis://127.0.0.1:port`. */
  url: string;
  /** Ends it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Stops it answering without closing connections (SIGSTOP). */
  pause(): void;
  /** Lets a paused server answer again (SIGCONT). */
  resume(): void;
  /** Ends it and removes its folder. */
  stop(): Promise<void>;
}

/** Where redis-server is on the PATH of `env`, or an error that says how to install it. */
export declare function redisServerPath(env?: NodeJS.ProcessEnv): string;

/** Starts redis-server on a free port; resolves once it accepts connections. */
export declare function startRedis(): Promise<RedisServer>;
