/**
 * What the preview's handlers know of the site they serve, and how: startPreview resolves it once
 * from PreviewOptions, and the request handler, the static files, the health check and the refused
 * requests each read their part. A leaf of its own, so those files need not import one another.
 */
import type { NodeSite } from "./node-site.ts";

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
