/**
 * Messages said: the catalogues of every language (en.ts, hr.ts), the translator that writes a
 * message in one of them, the language chosen, and a known failure made from a message (its
 * English line for logs, the message for the CLI to say). The types and msg() are the leaf
 * message.ts, which loads no catalogue.
 */
import { SubjektiError } from "../../core/errors.ts";
import { en } from "./en.ts";
import { hr } from "./hr.ts";
import type { Catalogue, Language, Message, MessageKey, Translator } from "./message.ts";

export const LANGUAGES: readonly Language[] = ["en", "hr"];

/** Whether `key` is a key of the catalogue. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/** Whether `value` is a Message (a problem's value may be one, or a value as written). */
export function isMessage(value: unknown): value is Message {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { key?: unknown }).key === "string" &&
    Object.hasOwn(en, (value as { key: string }).key)
  );
}

const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, hr };

/** The translator of `language`. */
export function translator(language: Language): Translator {
  const catalogue = CATALOGUES[language];
  const text = (key: MessageKey, params?: unknown): string => (catalogue[key] as (p?: unknown) => string)(saidWithin(params));
  // A parameter that is a message, or a list of messages, is said first, in the same language.
  const saidWithin = (params: unknown): unknown =>
    typeof params !== "object" || params === null || Array.isArray(params)
      ? params
      : Object.fromEntries(Object.entries(params).map(([name, value]) => [name, said(value)]));
  const said = (value: unknown): unknown =>
    isMessage(value) ? say(value) : Array.isArray(value) && value.length > 0 && value.every(isMessage) ? value.map(say) : value;
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
