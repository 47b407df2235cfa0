/**
 * What a subject being added takes: the id after the highest read, and the code after the highest
 * (codes rise with ids, so a new subject goes last). A row with an empty id or code is told both,
 * once the whole read has seen every key.
 */
import type { Problem } from "../problems/problems.ts";
import { msg } from "../../common/messages/message.ts";
import { compareDigits } from "./compare-digits.ts";
import type { KnownKeys } from "./block-keys.ts";

/** The highest id and code read so far; `guide` names the next ones in a new subject's problems. */
export class NextKeys {
  #id = 0;
  #code = "";

  /** Takes a block's keys (valid ids and codes, in any order); a block from the build cache by its highest code alone. */
  add(keys: { readonly ids: ArrayLike<number>; readonly codes: readonly string[]; readonly known?: Pick<KnownKeys, "highestCode"> }): void {
    const { ids, known } = keys;
    for (let k = 0; k < ids.length; k++) this.#id = Math.max(this.#id, ids[k] ?? 0);
    for (const code of known === undefined ? keys.codes : [known.highestCode])
      if (code !== "" && (this.#code === "" || compareDigits(code, this.#code) > 0)) this.#code = code;
  }

  /** `problems` with each new subject's hint naming the free id and code (as they were when no key was read). */
  guide(problems: readonly Problem[]): Problem[] {
    if (this.#id === 0 || this.#code === "") return [...problems];
    const next = msg("hint.next-keys", {
      id: this.#id + 1,
      code: (BigInt(this.#code) + 1n).toString().padStart(Math.max(4, this.#code.length), "0"),
    });
    return problems.map((p) => (p.hint?.key === "hint.new-subject" ? { ...p, hint: next } : p));
  }
}
