/**
 * A usage error as the maintainer reads it (cli/usage-error.ts): exit 2, nothing on stdout, and on
 * stderr the error in the chosen language (names and values as typed), commander's "did you mean"
 * said too, the command's usage line and where to read more; never the whole help. Each kind of
 * commander's errors in both languages through the real CLI; the kinds no subjekti command can
 * raise (an option that conflicts, a value from the environment, a command's argument refused by
 * its parser, "did you mean one of") through a bare commander program, so that a commander that
 * rewords a message fails here rather than printing it untranslated unseen.
 */
import { Command, CommanderError, Option } from "commander";
import { describe, expect, it } from "vitest";
import { translator } from "../../src/common/messages/translate.ts";
import { reportUsageErrorsTo, usageErrorLines, usageHint, withTranslatedValues } from "../../src/cli/usage-error.ts";
import { InvalidValue } from "../../src/common/messages/invalid-value.ts";
import { msg } from "../../src/common/messages/message.ts";
import { runCli } from "../run-cli.ts";

const HELP = {
  en: (command: string) => `For more information, try 'subjekti${command} --help'.`,
  hr: (command: string) => `Za više informacija pokušajte 'subjekti${command} --help'.`,
};
const USAGE = { en: "Usage: subjekti", hr: "Uporaba: subjekti" };

describe("each usage error through the CLI: its line, the usage line and the hint, in either language", () => {
  it.each([
    {
      kind: "an unknown option",
      args: ["build", "--bogus"],
      en: ["error: unknown option '--bogus'"],
      hr: ["greška: nepoznata opcija '--bogus'"],
    },
    {
      kind: "an unknown option like a known one",
      args: ["build", "--dat"],
      en: ["error: unknown option '--dat'", "(Did you mean --data?)"],
      hr: ["greška: nepoznata opcija '--dat'", "(Jeste li mislili --data?)"],
    },
    {
      kind: "a missing argument",
      args: ["check"],
      en: ["error: missing required argument 'url'"],
      hr: ["greška: nedostaje obavezni argument 'url'"],
    },
    {
      kind: "an argument too many",
      args: ["check", "https://example.org", "again"],
      en: ["error: too many arguments for 'check'. Expected 1 argument but got 2."],
      hr: ["greška: previše argumenata za naredbu 'check': očekuje se 1 argument, a zadano je 2"],
    },
    {
      kind: "an option without its value",
      args: ["build", "--data"],
      en: ["error: option '--data <dir>' argument missing"],
      hr: ["greška: opciji '--data <dir>' nedostaje vrijednost"],
    },
    {
      kind: "a required option not given",
      args: ["export", "--data", "data"],
      en: ["error: required option '--out <file>' not specified"],
      hr: ["greška: obavezna opcija '--out <file>' nije zadana"],
    },
    {
      kind: "a value not among the choices",
      args: ["build", "--links", "x"],
      en: ["error: option '--links <kind>' argument 'x' is invalid. Allowed choices are query, files."],
      hr: ["greška: vrijednost 'x' opcije '--links <kind>' nije ispravna: dopuštene vrijednosti su query, files"],
    },
    {
      kind: "a value the option's own parser refuses",
      args: ["build", "--threads", "x"],
      en: [`error: option '--threads <n>' argument 'x' is invalid. expected a positive integer, got "x"`],
      hr: [`greška: vrijednost 'x' opcije '--threads <n>' nije ispravna: očekuje se pozitivan cijeli broj, a zadano je "x"`],
    },
    {
      kind: "a value a parser of another module refuses (listen-options.ts)",
      args: ["preview", "--port", "99999"],
      en: [`error: option '--port <n>' argument '99999' is invalid. expected a port from 0 to 65535 (0: any free one), got "99999"`],
      hr: [
        `greška: vrijednost '99999' opcije '--port <n>' nije ispravna: očekuju se vrata od 0 do 65535 (0: bilo koja slobodna), a zadano je "99999"`,
      ],
    },
  ])("$kind", async ({ args, en, hr }) => {
    const command = ` ${args[0] ?? ""}`;
    const usage = (await runCli([args[0] ?? "", "--help"])).stdout.split("\n")[0]?.slice("Usage: subjekti".length);
    for (const [lang, lines] of [
      ["en", en],
      ["hr", hr],
    ] as const) {
      expect(await runCli([...args, "--lang", lang])).toEqual({
        code: 2,
        stdout: "",
        stderr: [...lines, `${USAGE[lang]}${usage}`, HELP[lang](command)].map((line) => `${line}\n`).join(""),
      });
    }
  });

  it.each([
    ["en", {}, ["error: unknown command 'bild'", "(Did you mean build?)"]],
    ["hr", { LANG: "hr_HR.UTF-8" }, ["greška: nepoznata naredba 'bild'", "(Jeste li mislili build?)"]],
  ] as const)("an unknown command like a known one (%s): the program's usage line", async (lang, env, lines) => {
    expect(await runCli(["bild"], env)).toEqual({
      code: 2,
      stdout: "",
      stderr: [...lines, `${USAGE[lang]} [options] [command]`, HELP[lang]("")].map((line) => `${line}\n`).join(""),
    });
  });

  it("a --lang that is no language: the locale's language says so", async () => {
    expect(await runCli(["--lang", "xx", "build"], { LANG: "hr_HR.UTF-8" })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "greška: vrijednost 'xx' opcije '--lang <language>' nije ispravna: dopuštene vrijednosti su en, hr\n" +
        "Uporaba: subjekti [options] [command]\n" +
        "Za više informacija pokušajte 'subjekti --help'.\n",
    });
  });

  it("the project's own usage error (export's --format against --out's extension): its line as said, then the usage line and the hint", async () => {
    expect(await runCli(["export", "--data", "data", "--out", "x.csv", "--format", "xlsx", "--lang", "hr"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "greška: --out x.csv ne završava s .xlsx, a --format xlsx piše taj oblik: izgradnja bi ga čitala kao .csv; nazovite ga .xlsx\n" +
        "Uporaba: subjekti export [options]\n" +
        "Za više informacija pokušajte 'subjekti export --help'.\n",
    });
  });

  it("a value refused from the environment (Netlify's URL as the base URL): its one line naming the variable, no usage", async () => {
    expect(await runCli(["build", "--out", "never", "--lang", "hr"], { URL: "registry" })).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `subjekti: URL=registry u okruženju (ishodište poveznica kad --base-url nije zadan): očekuje se apsolutni URL, npr. https://example.org, ` +
        `a zadano je "registry"; postavite ga na adresu mrežnog sjedišta ili zadajte --base-url\n`,
    });
    const preview = await runCli(["build", "--out", "never"], {
      CONTEXT: "deploy-preview",
      DEPLOY_PRIME_URL: "ftp://deploy",
      URL: "https://ok.example",
    });
    expect(preview.code).toBe(1);
    expect(preview.stderr).toMatch(
      /^subjekti: DEPLOY_PRIME_URL=ftp:\/\/deploy in the environment \(the links' origin unless --base-url is given\): .*; set it to the site's address or pass --base-url\n$/,
    );
    // Given on the command line, the environment is not read.
    expect((await runCli(["build", "--out", "never", "--base-url", "registry"], { URL: "registry" })).code).toBe(2);
  });
});

/** The stderr lines of `argv` given to `program`, wired as main wires the CLI's, in Croatian. */
function croatianLines(program: Command, argv: string[], env: Record<string, string> = {}): string[] {
  const tr = translator("hr");
  let failed: Command | undefined;
  program.exitOverride();
  reportUsageErrorsTo(program, (command) => {
    failed = command;
  });
  withTranslatedValues(program, tr);
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError) || failed === undefined) throw error;
    return [...usageErrorLines(error.code, error.message, tr), ...usageHint(failed, tr)];
  } finally {
    for (const name of Object.keys(env)) if (saved[name] === undefined) Reflect.deleteProperty(process.env, name);
  }
  throw new Error("no usage error");
}

describe("commander's formats no subjekti command raises, through commander itself", () => {
  const tool = (): Command => new Command("tool").action(() => undefined);

  it("two options that conflict", () => {
    const program = tool().addOption(new Option("--quiet").conflicts("verbose")).option("--verbose");
    expect(croatianLines(program, ["--quiet", "--verbose"])).toEqual([
      "greška: opcija '--quiet' i opcija '--verbose' ne mogu se zadati zajedno",
      "Uporaba: tool [options]",
      "Za više informacija pokušajte 'tool --help'.",
    ]);
  });

  it("an option from the environment that conflicts with one on the command line", () => {
    const program = tool().addOption(new Option("--quiet").env("SUBJEKTI_TEST_QUIET").conflicts("verbose")).option("--verbose");
    expect(croatianLines(program, ["--verbose"], { SUBJEKTI_TEST_QUIET: "1" })[0]).toBe(
      "greška: varijabla okruženja 'SUBJEKTI_TEST_QUIET' i opcija '--verbose' ne mogu se zadati zajedno",
    );
  });

  it("a value from the environment that the option's parser refuses, said in Croatian", () => {
    const refuse = (text: string): never => {
      throw new InvalidValue(msg("invalid.positive-integer", { text }));
    };
    const program = tool().addOption(new Option("--threads <n>").env("SUBJEKTI_TEST_THREADS").argParser(refuse));
    expect(croatianLines(program, [], { SUBJEKTI_TEST_THREADS: "x" })[0]).toBe(
      `greška: vrijednost 'x' opcije '--threads <n>' iz varijable okruženja 'SUBJEKTI_TEST_THREADS' nije ispravna: očekuje se pozitivan cijeli broj, a zadano je "x"`,
    );
  });

  it("a command's argument that its parser refuses", () => {
    const program = tool().argument("<n>", "a number", (text: string) => {
      throw new InvalidValue(msg("invalid.positive-integer", { text }));
    });
    expect(croatianLines(program, ["x"])).toEqual([
      `greška: vrijednost 'x' argumenta 'n' nije ispravna: očekuje se pozitivan cijeli broj, a zadano je "x"`,
      "Uporaba: tool [options] <n>",
      "Za više informacija pokušajte 'tool --help'.",
    ]);
  });

  it('too many arguments for the program itself, and a "did you mean" of several names', () => {
    expect(croatianLines(tool(), ["a"])[0]).toBe("greška: previše argumenata: očekuje se 0 argumenata, a zadano je 1");
    const program = tool().option("--data1").option("--data2");
    expect(croatianLines(program, ["--data"]).slice(0, 2)).toEqual([
      "greška: nepoznata opcija '--data'",
      "(Jeste li mislili --data1 ili --data2?)",
    ]);
  });
});

describe("a message in no format known: kept as written", () => {
  it.each([
    ["commander.unknownOption", "error: unknown flag '--x'"],
    ["commander.unknownOption", "error: unknown option '--x'\n(Perhaps --y?)"],
    ["commander.invalidArgument", "error: option '--a' refused 'x'"],
    ["commander.somethingNew", "error: something new"],
  ])("%s: %j", (code, text) => {
    expect(usageErrorLines(code, text, translator("hr"))).toEqual(text.split("\n"));
  });
});
