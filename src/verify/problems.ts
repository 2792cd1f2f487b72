// What `verify` reports: one code per kind of thing a crawler would get wrong or miss.

/** What a problem is about. */
export type ProblemCode =
  | 'FETCH_FAILED'
  | 'BAD_STATUS'
  | 'META_NOT_200'
  | 'MALFORMED_META'
  | 'MISSING_CANONICAL'
  | 'UGLY_CANONICAL'
  | 'BAD_CANONICAL'
  | 'UGLY_LINK'
  | 'UGLY_SITEMAP'
  | 'BAD_SITEMAP'
  | 'OFF_ORIGIN'
  | 'OFF_ORIGIN_REDIRECT'
  | 'TEXT_MISMATCH'
  | 'EMPTY_FOR_BOTS'
  | 'STATUS_DIFFERS'
  | 'MISSING_VARY';

/** One thing the crawler would get wrong or miss. */
export interface Problem {
  /** The kind of problem. */
  code: ProblemCode;
  /** What is wrong, naming the URL or element concerned. */
  message: string;
}
