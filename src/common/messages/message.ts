/**
 * What the tool says to the maintainer, in the maintainer's language. A problem or an error holds
 * a Message: a stable key and its parameters (numbers as numbers, places and values as written),
 * never a sentence; the sentence is made only when it is printed, from the catalogue of the
 * language chosen (en.ts, hr.ts). So `--json` stays language-neutral, and a million problems cost
 * no formatting until the few printed are.
 */
import { SubjektiError } from "../../core/subjekti-error.ts";
import { en } from "./en.ts";
import { hr } from "./hr.ts";

export type Language = "en" | "hr";
export const LANGUAGES: readonly Language[] = ["en", "hr"];

/** Every key of the catalogue: English is the reference, every other catalogue has exactly its keys. */
export type MessageKey = keyof typeof en;
/**
 * A parameter that is itself a message (a problem's rule inside an error's sentence): the catalogue
 * declares it `Said` and receives its sentence in the same language; whoever makes the message
 * passes the Message.
 */
export type Said = string & { readonly __said: true };
/** The parameters `key`'s function is given, before nested messages are said. */
type Given<P> = { [F in keyof P]: Exclude<P[F], undefined> extends Said ? Message | Extract<P[F], undefined> : P[F] };
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

/** Whether `key` is a key of the catalogue. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/** Whether `value` is a Message (a problem's value may be one, or a value as written). */
export function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && typeof (value as { key?: unknown }).key === "string" && Object.hasOwn(en, (value as { key: string }).key);
}

const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, hr };

/** Writes messages in one language. */
export interface Translator {
  readonly language: Language;
  /** The sentence of a message. */
  say(message: Message): string;
  /** The sentence of `key` with its parameters. */
  text<K extends MessageKey>(key: K, ...params: ParamsOf<K>): string;
}

/** The translator of `language`. */
export function translator(language: Language): Translator {
  const catalogue = CATALOGUES[language];
  const text = (key: MessageKey, params?: unknown): string => (catalogue[key] as (p?: unknown) => string)(saidWithin(params));
  // A parameter that is a message is said first, in the same language.
  const saidWithin = (params: unknown): unknown =>
    typeof params !== "object" || params === null || Array.isArray(params) ? params : Object.fromEntries(Object.entries(params).map(([name, value]) => [name, isMessage(value) ? say(value) : value]));
  const say = (message: Message): string => text(message.key, "params" in message ? message.params : undefined);
  return {
    language,
    say,
    text: (key, ...params) => text(key, params[0]),
  };
}

/** English: what tests, logs and the JSON reports' `message` use. */
export const ENGLISH: Translator = translator("en");

/**
 * The language asked for: `--lang` when given, else the locale as POSIX orders it (the first of
 * LC_ALL, LC_MESSAGES, LANG that is set); one starting `hr` is Croatian, any other English.
 */
export function chooseLanguage(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): Language {
  if (flag === "hr" || flag === "en") return flag;
  const locale = [env["LC_ALL"], env["LC_MESSAGES"], env["LANG"]].find((v) => v !== undefined && v !== "");
  return locale !== undefined && locale.toLowerCase().startsWith("hr") ? "hr" : "en";
}

/** A known failure whose line is `message`: SubjektiError with its English text and its message, for the CLI to say in the maintainer's language. */
export function failure(code: string, message: Message): SubjektiError {
  return new SubjektiError(code, ENGLISH.say(message), message);
}

/** The line of a known failure in `tr`'s language (its English message when it holds no catalogue message). */
export function sayFailure(error: SubjektiError, tr: Translator): string {
  return isMessage(error.text) ? tr.say(error.text) : error.message;
}
