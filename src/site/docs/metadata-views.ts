/**
 * What the published description reads of the descriptor (data/datapackage.json): a contributor
 * by role, the Croatian title and description. Apart from the descriptor's reading
 * (dataset-metadata.ts), so the pages that describe the dataset load no reader of it.
 */
import type { Contributor, DatasetMetadata } from "./dataset-metadata.ts";

/** The contributor with `role` (the first), if any. */
export function contributorWith(metadata: DatasetMetadata, role: "publisher" | "contact" | "creator"): Contributor | undefined {
  return metadata.contributors?.find((c) => c.roles?.includes(role) === true);
}

/** The Croatian title and description, or the registry's own words when the descriptor gives none. */
export function croatian(metadata: DatasetMetadata): { readonly title: string; readonly description: string } {
  return (
    metadata.hr ?? {
      title: "Registar subjekata",
      description: "Hrvatske institucije (subjekti) s OIB-om, razinom, datumom postanka, mjestom i kontaktom.",
    }
  );
}
