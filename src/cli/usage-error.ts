/**
 * A usage error (exit 2) as a serious CLI says it (cargo, git): commander's one line in the
 * maintainer's language, with its "did you mean", then the command's usage line and where to read
 * more, rather than the whole help that pushes the one line that matters off the screen.
 *
 * commander makes each message in a private method of its own (unknownOption, _excessArguments,
 * _conflictingOption, _callParseArg, …) and hands on only the text and a `code`. Overriding those
 * methods would copy commander's internals (the search behind "did you mean", the guess of which
 * of two conflicting options was given, the counting of arguments) and bind to private names any
 * release may change. Its messages instead are a fixed format per code, so the parts are read back
 * from the text by one pattern per code: a message no pattern matches (a reworded commander) is
 * printed as commander wrote it, in English, so it is at worst untranslated and never wrong, and
 * the tests (one per format, through the real parser) fail on that upgrade to say so.
 */
import { type Command, InvalidArgumentError } from "commander";
import { InvalidValue } from "../common/messages/invalid-value.ts";
import type { Translator } from "../common/messages/message.ts";

/** What each of commander's usage errors reads as, by code: the pattern of its text and its line. */
const FORMATS: Readonly<Record<string, readonly [RegExp, (parts: string[], tr: Translator) => string]>> = {
  "commander.unknownOption": [/^error: unknown option '(.*)'$/s, ([option = ""], tr) => tr.text("usage.unknown-option", { option })],
  "commander.unknownCommand": [/^error: unknown command '(.*)'$/s, ([command = ""], tr) => tr.text("usage.unknown-command", { command })],
  "commander.missingArgument": [
    /^error: missing required argument '(.*)'$/s,
    ([argument = ""], tr) => tr.text("usage.missing-argument", { argument }),
  ],
  "commander.optionMissingArgument": [
    /^error: option '(.*)' argument missing$/s,
    ([option = ""], tr) => tr.text("usage.option-missing-value", { option }),
  ],
  "commander.missingMandatoryOptionValue": [
    /^error: required option '(.*)' not specified$/s,
    ([option = ""], tr) => tr.text("usage.missing-option", { option }),
  ],
  "commander.conflictingOption": [
    /^error: (option|environment variable) '(.*)' cannot be used with (option|environment variable) '(.*)'$/s,
    ([firstKind, first = "", secondKind, second = ""], tr) =>
      tr.text("usage.conflicting-options", {
        one: { env: firstKind !== "option", name: first },
        another: { env: secondKind !== "option", name: second },
      }),
  ],
  "commander.excessArguments": [
    /^error: too many arguments(?: for '(.*)')?\. Expected (\d+) arguments? but got (\d+)\.$/s,
    ([command, expected = "", got = ""], tr) =>
      tr.text("usage.too-many-arguments", { ...(command === undefined ? {} : { command }), expected: Number(expected), got: Number(got) }),
  ],
  // An option's value, the same from the environment, a command's argument: each with the parser's reason.
  "commander.invalidArgument": [
    /^error: (?:option '(.*?)' argument '(.*)' is invalid|option '(.*?)' value '(.*)' from env '(.*)' is invalid|command-argument value '(.*)' is invalid for argument '(.*)')\. (.*)$/s,
    ([option, value, envOption, envValue, variable, argValue, argument, reason = ""], tr) => {
      const why = reasonOf(reason, tr);
      if (option !== undefined) return tr.text("usage.invalid-option-value", { option, value: value ?? "", reason: why });
      if (envOption !== undefined)
        return tr.text("usage.invalid-env-value", { option: envOption, value: envValue ?? "", variable: variable ?? "", reason: why });
      return tr.text("usage.invalid-argument", { argument: argument ?? "", value: argValue ?? "", reason: why });
    },
  ],
};

/** A parser's reason: commander's own for a choice, else the project's, said already (withTranslatedValues). */
function reasonOf(reason: string, tr: Translator): string {
  const choices = /^Allowed choices are (.*)\.$/s.exec(reason)?.[1];
  return choices === undefined ? reason : tr.text("usage.choices", { choices: choices.split(", ") });
}

/** commander's "did you mean", on the line after an unknown option or command. */
const SUGGESTION = /^\(Did you mean (?:one of )?(.*)\?\)$/s;

/**
 * The lines of commander's usage error `text` (code `code`) in `tr`'s language: the error, and its
 * "did you mean" when there is one. A text not in commander's known format is kept as written,
 * as is the project's own (code commander.error), which is said in the language already.
 */
export function usageErrorLines(code: string, text: string, tr: Translator): string[] {
  const format = FORMATS[code];
  if (format === undefined) return text.split("\n");
  const [pattern, line] = format;
  const [error = "", suggestion] = code === "commander.unknownOption" || code === "commander.unknownCommand" ? splitOnce(text) : [text];
  const parts = pattern.exec(error);
  const names = suggestion === undefined ? undefined : SUGGESTION.exec(suggestion)?.[1];
  if (parts === null || (suggestion !== undefined && names === undefined)) return text.split("\n");
  const said = line(parts.slice(1), tr);
  return names === undefined ? [said] : [said, tr.text("usage.did-you-mean", { names: names.split(", ") })];
}

function splitOnce(text: string): [string, string?] {
  const newline = text.indexOf("\n");
  return newline < 0 ? [text] : [text.slice(0, newline), text.slice(newline + 1)];
}

/** The usage line and the hint where to read more, of the command that refused its arguments. */
export function usageHint(command: Command, tr: Translator): string[] {
  const names: string[] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) names.unshift(at.name());
  return [
    tr.text("usage.usage", { usage: command.createHelp().commandUsage(command) }),
    tr.text("usage.more", { help: `${names.join(" ")} --help` }),
  ];
}

/** `command` and every command under it. */
function* commandsOf(command: Command): Generator<Command> {
  yield command;
  for (const sub of command.commands) yield* commandsOf(sub);
}

/**
 * Each command of `program` reports the usage error it raises to `failed` rather than writing
 * commander's English: main writes the lines, knowing the error's code once commander throws it.
 */
export function reportUsageErrorsTo(program: Command, failed: (command: Command) => void): void {
  for (const command of commandsOf(program)) command.configureOutput({ outputError: () => failed(command) });
}

/**
 * Each parser of `program`'s options and arguments says the InvalidValue it throws in `tr`'s
 * language, before commander puts the reason in its line.
 */
export function withTranslatedValues(program: Command, tr: Translator): void {
  for (const command of commandsOf(program)) {
    for (const target of [...command.options, ...command.registeredArguments]) {
      const parse = target.parseArg;
      if (parse === undefined) continue;
      target.parseArg = <T>(value: string, previous: T): T => {
        try {
          return parse(value, previous);
        } catch (error) {
          if (error instanceof InvalidValue) throw new InvalidArgumentError(tr.say(error.text));
          throw error;
        }
      };
    }
  }
}
