/**
 * The crawl files stage's steps in a row, as a build with nothing to wait for would take them:
 * prepared, switched in, finished (discarded on a failure). The build takes the steps apart (the
 * files wait beside the site for the search stage); the tests of the files themselves want them whole.
 */
import { type CrawlFacts, type CrawlReport, crawlFiles } from "../../../src/site/docs/write-crawl-files.ts";

export async function writeCrawlFiles(outDir: string, facts: CrawlFacts): Promise<CrawlReport> {
  const files = crawlFiles(outDir, facts);
  try {
    await files.prepare();
    files.switchIn();
    return await files.finish();
  } catch (error) {
    await files.discard();
    throw error;
  }
}
