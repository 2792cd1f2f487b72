// The server's one error type. On the wire the HTTP status is the error (STYLE.md, "Errors"); this
// class is what `render()`, `prerender()` and the option checks throw, with a `code` to branch on.

/** What a `SnapshotError` is about. */
export type SnapshotErrorCode =
  | 'BAD_OPTION'
  | 'BAD_SHELL'
  | 'UNSAFE_PATH'
  | 'PATH_COLLISION'
  | 'TIMEOUT'
  | 'BUSY'
  | 'ABANDONED'
  | 'LIMITED'
  | 'RENDER_FAILED'
  | 'DATA_NOT_JSON';

/** A snapshot that could not be made, or an option that cannot work; `code` names which. */
export class SnapshotError extends Error {
  /** The kind of error. */
  readonly code: SnapshotErrorCode;

  constructor(code: SnapshotErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SnapshotError';
    this.code = code;
  }
}
