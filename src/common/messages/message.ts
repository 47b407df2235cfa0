/**
 * What the tool says to the maintainer, in the maintainer's language. A problem or an error holds
 * a Message: a stable key and its parameters (numbers as numbers, places and values as written),
 * never a sentence; the sentence is made only when it is printed, from the catalogue of the
 * language chosen (en.ts, hr.ts; translate.ts says it). So `--json` stays language-neutral, and a
 * million problems cost no formatting until the few printed are.
 *
 * A leaf: the types and msg() only, loading no catalogue, so a rule or a reader that makes a
 * message adds no file to its chain of imports; the catalogues are loaded by whoever says one.
 */
import type { en, Said } from "./en.ts";

export type { Said } from "./en.ts";

/** Every key of the catalogue: English is the reference, every other catalogue has exactly its keys. */
export type MessageKey = keyof typeof en;
/** The parameters `key`'s function is given, before nested messages are said. */
type Given<P> = {
  [F in keyof P]: Exclude<P[F], undefined> extends Said
    ? Message | Extract<P[F], undefined>
    : Exclude<P[F], undefined> extends readonly Said[]
      ? readonly Message[] | Extract<P[F], undefined>
      : P[F];
};
/** The parameters of `key`'s message: none, or one object. */
export type ParamsOf<K extends MessageKey> = Parameters<(typeof en)[K]> extends [infer P] ? [Given<P>] : [];
/** A catalogue: every key's sentence, taking the same parameters as the English one (a missing key is a type error). */
export type Catalogue = { readonly [K in MessageKey]: (typeof en)[K] };

/** A sentence not yet written: its key and parameters. */
export type Message = {
  [K in MessageKey]: ParamsOf<K> extends [] ? { readonly key: K } : { readonly key: K; readonly params: ParamsOf<K>[0] };
}[MessageKey];

/** The message `key` with its parameters. */
export function msg<K extends MessageKey>(key: K, ...params: ParamsOf<K>): Message {
  return (params.length === 0 ? { key } : { key, params: params[0] }) as Message;
}

export type Language = "en" | "hr";

/** Writes messages in one language (translate.ts makes one). */
export interface Translator {
  readonly language: Language;
  /** The sentence of a message. */
  say(message: Message): string;
  /** The sentence of `key` with its parameters. */
  text<K extends MessageKey>(key: K, ...params: ParamsOf<K>): string;
}
