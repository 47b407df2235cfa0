/**
 * What the preview serves, and how, resolved once from the options it is started with: the site
 * directory and its manifest (followed unless told not to), the hosts it answers, the scheme of its
 * links. The request handler, the static files, the health check and the refused requests each
 * read their part.
 */
import { type NodeSite, nodeSite } from "../common/node-site.ts";
import type { AccessLog } from "./access-log.ts";
import type { PreviewLimits } from "./bounded-server.ts";
import type { ManifestWatcher } from "./site-manifest.ts";

export interface PreviewOptions {
  /** The built site (default dist). */
  readonly dir: string;
  readonly port: number;
  readonly host: string;
  /** Bounds on what a client may hold (defaults: PREVIEW_LIMITS). */
  readonly limits?: Partial<PreviewLimits>;
  /**
   * Follow rebuilds (default): look for a newer manifest at most every 100 ms, and before every
   * conditional request, so a 304 never confirms bytes a rebuild replaced. Off: only when a file
   * it names is missing.
   */
  readonly watch?: boolean;
  /**
   * Django's ALLOWED_HOSTS (src/core/allowed-hosts.ts): any other Host is refused with a 400;
   * `base-url`: the host of the site's base URL alone. Absent: every Host is answered.
   */
  readonly allowedHosts?: readonly string[] | "base-url";
  /**
   * Read the scheme of the links from `X-Forwarded-Proto` (`http` or `https`), as Django's
   * SECURE_PROXY_SSL_HEADER does: only behind a proxy that sets that header on every request
   * (the nginx configuration does). The host is always the `Host` header's.
   */
  readonly forwardedProto?: boolean;
  /** An access log: one line per answered request, handed to `write` (`subjekti serve --log`). */
  readonly log?: AccessLog;
  /** Told of every request refused for its Host (ALLOWED_HOSTS), so a deployer sees why a 400 came. */
  readonly onRefusedHost?: (host: string | null, allowed: readonly string[]) => void;
  /** Answer GET and HEAD of HEALTH_PATH on any Host (`subjekti serve`: a load balancer's check). */
  readonly health?: boolean;
}

export interface ServedSite {
  /** The site directory (absolute). */
  readonly dir: string;
  readonly files: NodeSite;
  /** The scheme of the links is X-Forwarded-Proto's. */
  readonly forwardedProto: boolean;
  readonly allowedHosts: readonly string[] | undefined;
  readonly onRefusedHost: ((host: string | null, allowed: readonly string[]) => void) | undefined;
  /** GET and HEAD of HEALTH_PATH are answered on any Host. */
  readonly health: boolean;
  /** The manifest is followed (PreviewOptions.watch). */
  readonly watch: boolean;
}

/** The site in `dir` (absolute) that `options` name, its manifest opened (site-manifest.ts). */
export async function servedSite(dir: string, manifest: ManifestWatcher, options: PreviewOptions): Promise<ServedSite> {
  const allowedHosts = options.allowedHosts === "base-url" ? [await baseUrlHost(manifest)] : options.allowedHosts;
  return {
    dir,
    files: nodeSite(dir, manifest, { allowedHosts }),
    forwardedProto: options.forwardedProto ?? false,
    allowedHosts,
    onRefusedHost: options.onRefusedHost,
    health: options.health ?? false,
    watch: options.watch ?? true,
  };
}

/** The host of the site's base URL, as ALLOWED_HOSTS names it (no port). */
async function baseUrlHost(manifest: ManifestWatcher): Promise<string> {
  const state = await manifest.current();
  // open() refused a site without a usable manifest.
  if ("problem" in state) throw new Error(state.problem);
  return new URL(state.manifest.baseUrl).hostname;
}
