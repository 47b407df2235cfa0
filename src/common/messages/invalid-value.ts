/**
 * A value an option's parser refuses, saying why as a catalogue message: the parsers (the CLI's,
 * and those of the commands that listen, serve/listen-options.ts) stay language-neutral, and the
 * CLI says the message in the maintainer's language (cli/usage-error.ts withTranslatedValues).
 * A leaf of its own, so that serve/ and cli/ both reach it without reaching each other.
 *
 * Not a subclass of commander's InvalidArgumentError (the common helpers import no package): it
 * carries the two fields by which commander knows a parser's refusal (`_callParseArg` reads
 * `code` and `exitCode`), so commander makes it the same usage error.
 */
import type { Message } from "./message.ts";
import { ENGLISH } from "./translate.ts";

export class InvalidValue extends Error {
  readonly code = "commander.invalidArgument";
  readonly exitCode = 1;
  readonly text: Message;
  constructor(text: Message) {
    super(ENGLISH.say(text));
    this.name = "InvalidValue";
    this.text = text;
  }
}
