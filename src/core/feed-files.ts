/**
 * The change feed's files as every host serves them (plain static files under `/changes/`, written
 * by the build beside the site): readable from any origin, like the API; the state and the Atom
 * feed cached briefly (they move with every build that changes the data), the diffs and snapshots
 * forever (each is immutable: a diff's sequence and a snapshot's content name never change bytes).
 * One table for the preview, netlify.toml and the nginx configuration (their tests hold them to it).
 */

export interface FeedFileRule {
  /** The public path: exact, or a prefix ending in `/`. */
  readonly path: string;
  readonly cacheControl: string;
}

/** First match wins. */
export const FEED_FILE_RULES: readonly FeedFileRule[] = [
  { path: "/changes/state.json", cacheControl: "public, max-age=60" },
  { path: "/changes/feed.atom", cacheControl: "public, max-age=60" },
  { path: "/changes/", cacheControl: "public, max-age=31536000, immutable" },
];

/** The cache rule of a feed file's public path, if it is one. */
export function feedFileRule(path: string): FeedFileRule | undefined {
  return FEED_FILE_RULES.find((rule) => (rule.path.endsWith("/") ? path.startsWith(rule.path) : path === rule.path));
}
