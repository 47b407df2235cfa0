/**
 * Django's ALLOWED_HOSTS: a host that serves the API in production names the hosts its links may
 * be written on, and any other `Host` is refused with the 400 Django gives for DisallowedHost
 * (DEBUG off, refusals.ts), so a forged Host can never put another origin into a page a cache keeps.
 */

/** Django's `host_validation_re`, matched on the lower-cased host. */
const DJANGO_HOST = /^(?:[a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(?::[0-9]+)?$/;

/**
 * The domain Django's `split_domain_port` reads from a `Host` header: lower-cased, the port and a
 * trailing dot dropped; "" when the header is not a host at all (`a_b`, `evil.org/x`).
 */
export function hostDomain(host: string): string {
  const lower = host.toLowerCase();
  if (!DJANGO_HOST.test(lower)) return "";
  if (lower.endsWith("]")) return lower;
  const colon = lower.lastIndexOf(":");
  const domain = colon < 0 ? lower : lower.slice(0, colon);
  return domain.endsWith(".") ? domain.slice(0, -1) : domain;
}

/**
 * Does ALLOWED_HOSTS `patterns` admit the `Host` header `host`? Django's `validate_host`: `*` admits
 * any host, `.example.org` that domain and every subdomain, anything else that domain exactly (case
 * ignored, the port never compared).
 */
export function isHostAllowed(host: string, patterns: readonly string[]): boolean {
  const domain = hostDomain(host);
  if (domain === "") return false;
  return patterns.some((raw) => {
    const pattern = raw.toLowerCase();
    if (pattern === "*") return true;
    if (pattern.startsWith(".")) return domain.endsWith(pattern) || domain === pattern.slice(1);
    return pattern !== "" && domain === pattern;
  });
}
