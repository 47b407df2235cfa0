/**
 * The institutions a change names for people. The Atom entry of a sequence and `sync`'s line say
 * which subjects were added, removed and changed, by name, up to NAMES_SHOWN of each and then a
 * count, so a reader sees "Blatski fižuli, ustanova u kulturi" where it saw hashes. A name is read
 * from a record's rendered bytes only for the few named: a diff of a million changes parses fifteen.
 */
/** Names shown of each kind of change; the rest are counted. */
export const NAMES_SHOWN = 5;
/** Characters of a name kept (a name may run to 2,000): enough to know it, a line rather than a page. */
export const NAME_LENGTH = 120;
/** The newest sequences whose entries keep their names in the state: the Atom feed's recent past, and a state that stays small. */
export const NAMED_ENTRIES = 100;

/** The first few names of each kind of change. */
export interface ChangeNames {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

export type ChangeKind = keyof ChangeNames;

const decoder = new TextDecoder();

/**
 * A record's name from its rendered line, shortened to NAME_LENGTH; `#<id>` when the line holds
 * none (a site's junk: a mirror's input is not trusted to be a subject).
 */
export function nameOfRecord(id: number, line: Uint8Array): string {
  let name: unknown;
  try {
    name = (JSON.parse(decoder.decode(line)) as { naziv_subjekta?: unknown }).naziv_subjekta;
  } catch {
    name = undefined;
  }
  if (typeof name !== "string") return `#${id}`;
  // By code point, so a cut never leaves half a surrogate pair.
  const points = [...name];
  return points.length > NAME_LENGTH ? `${points.slice(0, NAME_LENGTH - 1).join("")}…` : name;
}

/** Collects the first NAMES_SHOWN names of each kind of change, as the changes go past. */
export class NameCollector {
  readonly #names: { added: string[]; removed: string[]; changed: string[] } = { added: [], removed: [], changed: [] };

  /** Notes the record of one change (the new line for an upsert, the old one for a removal). */
  add(kind: ChangeKind, id: number, line: Uint8Array): void {
    const list = this.#names[kind];
    if (list.length < NAMES_SHOWN) list.push(nameOfRecord(id, line));
  }

  get names(): ChangeNames {
    return { added: [...this.#names.added], removed: [...this.#names.removed], changed: [...this.#names.changed] };
  }
}

/**
 * The history with names kept on its newest NAMED_ENTRIES entries only: each entry may hold some
 * 15 names, and a history of 200,000 entries must still fit the state's bound.
 */
export function namedRecent<E extends { readonly names?: ChangeNames }>(history: readonly E[]): E[] {
  return history.map((entry, at) => {
    if (at >= history.length - NAMED_ENTRIES || entry.names === undefined) return entry;
    const { names: _names, ...rest } = entry;
    return rest as E;
  });
}

/** `A; B; C` and, past the names shown, what `more` says of the rest. Names are joined by `; `: a name holds commas. */
export function listNames(names: readonly string[], total: number, more: (count: number) => string): string {
  const rest = total - names.length;
  return `${names.join("; ")}${rest > 0 ? more(rest) : ""}`;
}

/** Is `value` a ChangeNames as this code writes one (a state read from another site is input)? */
export function isChangeNames(value: unknown): value is ChangeNames {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const isList = (x: unknown): boolean =>
    Array.isArray(x) && x.length <= NAMES_SHOWN && x.every((n) => typeof n === "string" && [...n].length <= NAME_LENGTH);
  return isList(v["added"]) && isList(v["removed"]) && isList(v["changed"]);
}
