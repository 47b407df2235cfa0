/**
 * The hosts a build can be checked against (`--target`): a leaf of its own so that the CLI's option
 * list names them without loading the preflight (deploy-preflight.ts holds each host's limits).
 */
export const TARGETS = ["none", "netlify", "cloudflare-free", "cloudflare-paid", "static"] as const;
export type Target = (typeof TARGETS)[number];

/** Is `value` a target name? */
export function isTarget(value: string): value is Target {
  return (TARGETS as readonly string[]).includes(value);
}
