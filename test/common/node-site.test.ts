/**
 * The preview's file reader reads a name the manifest gives only inside the site directory: a
 * plain relative name is joined without a path walk (node-site.ts), so every other shape must
 * still be refused, whatever a tampered manifest names.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestWatcher } from "../../src/serve/site-manifest.ts";
import { nodeSite } from "../../src/common/node-site.ts";
import { tempDir } from "../file-trees.ts";

async function siteBesideASecret(): Promise<{ site: ReturnType<typeof nodeSite>; root: string }> {
  const root = await tempDir();
  const dir = join(root, "site");
  await mkdir(join(dir, "api"), { recursive: true });
  await writeFile(join(dir, "api", "page.json"), "inside");
  await writeFile(join(root, "secret.txt"), "outside");
  await writeFile(join(root, "site-secret.txt"), "beside");
  // Only the file reads are under test: the manifest is never asked for.
  const site = nodeSite(dir, {} as ManifestWatcher);
  return { site, root };
}

describe("the preview's site files", () => {
  it("reads a manifest-named file inside the site", async () => {
    const { site } = await siteBesideASecret();
    expect(Buffer.from((await site.readPage("api/page.json"))!.body as Uint8Array).toString()).toBe("inside");
    expect(await site.readChunk("api/./page.json")).toBe("inside");
    expect(await site.readChunk("api//page.json")).toBe("inside");
  });

  it("reads nothing outside it, whatever the name", async () => {
    const { site, root } = await siteBesideASecret();
    const names = [
      "../secret.txt",
      "api/../../secret.txt",
      "api/../../site-secret.txt",
      join(root, "secret.txt"),
      "/etc/hostname",
      "api/page.json\0",
      "",
      ".",
      "api",
      "api/missing.json",
    ];
    for (const name of names) {
      expect(await site.readPage(name), name).toBeNull();
      expect(await site.readChunk(name), name).toBeNull();
      expect(await site.readBytes!(name), name).toBeNull();
    }
  });

  it("still reads a name with .. that stays inside", async () => {
    const { site } = await siteBesideASecret();
    expect(await site.readChunk("api/../api/page.json")).toBe("inside");
  });
});
