/**
 * Every sentence of en.ts in Croatian, for the maintainers who keep the registry: the same keys
 * and parameters (a missing or extra key is a type error), Croatian plural forms by
 * `Intl.PluralRules("hr")` and numbers by `Intl.NumberFormat("hr")` (5.753). Field names, options,
 * file names and values stay as they are written.
 */
import type { CheckKind, LockWho, UsageSource } from "./en.ts";
import type { Catalogue } from "./message.ts";

const NUMBER = new Intl.NumberFormat("hr");
const PLURAL = new Intl.PluralRules("hr");
/** `5753` as `5.753`. */
const n = (x: number): string => NUMBER.format(x);
/** The form of a word for `x` (Croatian has three: 1 datoteka, 2 datoteke, 5 datoteka). */
const plural = (x: number, one: string, few: string, other: string): string => {
  const rule = PLURAL.select(x);
  return rule === "one" ? one : rule === "few" ? few : other;
};
/** `x` and its word: `21 subjekt`, `3 subjekta`, `5.753 subjekata`. */
const count = (x: number, one: string, few: string, other: string): string => `${n(x)} ${plural(x, one, few, other)}`;
/** A size already written with a decimal point (`67.8 KB`), with the Croatian decimal comma. */
const decimal = (size: string): string => size.replace(".", ",");
const MONTHS = [
  "siječanj",
  "veljača",
  "ožujak",
  "travanj",
  "svibanj",
  "lipanj",
  "srpanj",
  "kolovoz",
  "rujan",
  "listopad",
  "studeni",
  "prosinac",
] as const;
const or = (words: readonly string[]): string => words.map((w) => JSON.stringify(w)).join(" ili ");
const list = (words: readonly string[]): string => words.join(", ");
/** `a`, `a ili b`, `a, b ili c`. */
const either = (words: readonly string[]): string =>
  words.length < 2 ? list(words) : `${list(words.slice(0, -1))} ili ${words[words.length - 1] ?? ""}`;
/** Zašto se na mjesto ne može pisati, po kodu greške. */
const reason = (code: string): string =>
  ({
    EACCES: "pristup odbijen",
    EPERM: "pristup odbijen",
    EROFS: "datotečni sustav je samo za čitanje",
    ENOSPC: "na disku nema mjesta",
    EDQUOT: "kvota diska je potrošena",
    ENOTDIR: "datoteka na mjestu mape",
    EEXIST: "datoteka na mjestu mape",
    EISDIR: "mapa na mjestu datoteke",
  })[code] ?? (code === "" ? "greška" : code);
const holder = (p: LockWho): string => {
  if (p.holder === undefined) return `zaključavanje koje ne navodi nijedan proces subjekti (${p.path})`;
  const who = `proces ${p.holder.pid} (subjekti ${p.holder.command} od ${p.holder.since})`;
  return p.holder.host === undefined ? who : `${who} na računalu ${p.holder.host}; ako ondje ništa ne radi, uklonite ${p.path}`;
};
/** Što je zadalo vrijednost opcije koja se kosi s drugom: naredbeni redak ili varijabla okruženja. */
const source = (p: UsageSource): string => (p.env ? `varijabla okruženja '${p.name}'` : `opcija '${p.name}'`);
/** Što provjerava zahtjev naredbe check, u tri oblika za broj (1, 2–4, 5 i više). */
const KINDS: Readonly<Record<CheckKind, readonly [string, string, string]>> = {
  "pre-rendered": ["unaprijed izrađena stranica", "unaprijed izrađene stranice", "unaprijed izrađenih stranica"],
  derived: ["izvedena stranica", "izvedene stranice", "izvedenih stranica"],
  head: ["zahtjev HEAD", "zahtjeva HEAD", "zahtjeva HEAD"],
  conditional: ["uvjetni zahtjev", "uvjetna zahtjeva", "uvjetnih zahtjeva"],
  preflight: ["predzahtjev CORS", "predzahtjeva CORS", "predzahtjeva CORS"],
  options: ["zahtjev OPTIONS", "zahtjeva OPTIONS", "zahtjeva OPTIONS"],
  redirect: ["preusmjeravanje", "preusmjeravanja", "preusmjeravanja"],
  "not-found": ["nepostojeća adresa (404)", "nepostojeće adrese (404)", "nepostojećih adresa (404)"],
  "not-allowed": ["nedopuštena metoda (405)", "nedopuštene metode (405)", "nedopuštenih metoda (405)"],
  "not-acceptable": ["neprihvatljiv oblik (406)", "neprihvatljiva oblika (406)", "neprihvatljivih oblika (406)"],
  published: ["objavljena datoteka", "objavljene datoteke", "objavljenih datoteka"],
  download: ["preuzimanje", "preuzimanja", "preuzimanja"],
  lookup: ["dohvat", "dohvata", "dohvata"],
  search: ["pretraga", "pretrage", "pretraga"],
  page: ["stranica za ljude", "stranice za ljude", "stranica za ljude"],
};
/** Ono što se u odgovoru razlikuje: zaglavlja ostaju kako su napisana, ostalo po hrvatski. */
const DIFFERS: Readonly<Record<string, string>> = { answer: "odgovor", body: "tijelo", bytes: "bajtova" };
/** Vrijednost iz odgovora kakva jest, osim oznaka check-a za zaglavlje kojega nema i prazno tijelo. */
const answered = (value: string): string => ({ "(none)": "(bez zaglavlja)", "(empty)": "(prazno)" })[value] ?? value;
const files = (x: number): string => count(x, "datoteka", "datoteke", "datoteka");
const bytes = (x: number): string => count(x, "bajt", "bajta", "bajtova");
const WHAT = { build: "izgradnja", export: "izvoz", validate: "provjera", sync: "sinkronizacija" } as const;

export const hr: Catalogue = {
  "line.problem": (p) =>
    `${p.where}:${p.warning ? " upozorenje:" : ""}${p.field === undefined ? "" : ` ${p.field}:`} očekuje se ${p.expected}${p.got === undefined ? "" : `, a nađeno je ${p.got}`}${p.hint === undefined ? "" : ` (${p.hint})`}`,
  "line.says": (p) => `${p.where}${p.warning ? ": upozorenje:" : ""} ${p.says}`,
  "line.more": (p) =>
    `… i još ${n(p.more)} ${plural(p.more, "takav", "takva", "takvih")}:${p.warning ? " upozorenje:" : ""}${p.field === undefined ? "" : ` ${p.field}:`} očekuje se ${p.expected}`,
  "line.form": (p) =>
    `${p.where}:${p.warning ? " upozorenje:" : ""}${p.field === undefined ? "" : ` ${p.field}:`} ${n(p.count)} × ${p.form}: očekuje se ${p.expected}${p.got === undefined ? "" : `, a nađeno je ${p.got}`}${p.hint === undefined ? "" : ` (${p.hint})`}` +
    (p.also.length === 0
      ? ""
      : `; također ${p.also.join(", ")}${p.more > 0 ? ` i još ${n(p.more)} ${plural(p.more, "mjesto", "mjesta", "mjesta")}` : ""}`),
  "line.known": (p) =>
    `${count(p.count, "poznato upozorenje", "poznata upozorenja", "poznatih upozorenja")}, ${plural(p.count, "prihvaćeno", "prihvaćena", "prihvaćenih")} u ${p.path} (nisu ispisana; subjekti validate --accept bilježi trenutačna)`,
  "line.over-limits": (p) => `upozorenje: ${p.detail}`,
  "field.unknown": () => "nepoznato polje",
  "table.title": () => "problemi po vrsti:",
  "table.count": (p) => n(p.count),
  "table.error": () => "greška",
  "table.warning": () => "upozorenje",
  "table.file": () => "(datoteka)",
  "table.rule": (p) => `očekuje se ${p.expected}`,
  "table.form-rule": (p) => `${p.form} (očekuje se ${p.expected})`,

  "expected.id": () => "cijeli broj ≥ 1",
  "expected.code-string": () => "najmanje 4 znamenke kao tekst",
  "expected.code": () => "najmanje 4 znamenke (s vodećim nulama)",
  "expected.name": () => "naziv koji nije prazan",
  "expected.oib-string": () => "11 znamenaka kao tekst",
  "expected.oib": () => "11 znamenaka",
  "expected.razina": () => "jedna riječ malim slovima",
  "expected.date-string": () => "stvaran datum GGGG-MM-DD kao tekst",
  "expected.date": () => "stvaran datum GGGG-MM-DD",
  "expected.true-or-false": () => "true ili false",
  "expected.string": () => "tekst",
  "expected.schema": (p) => p.text,
  "expected.field-name": () => "jedan od deset naziva polja",
  "expected.flat-value": () => "jednostavna vrijednost",
  "expected.subject-object": () => "objekt s deset polja subjekta",
  "expected.field-once": () => "svako polje jednom",
  "expected.at-most-characters": (p) => `najviše ${count(p.max, "znak", "znaka", "znakova")}`,
  "expected.whole-characters": () => "tekst od cijelih znakova",
  "expected.check-digit": () => "ispravna kontrolna znamenka (ISO 7064 MOD 11,10)",
  "expected.known-razina": (p) => or(p.levels),
  "expected.city": () => "grad",
  "expected.one-subject-oib": () => "OIB koji nema nijedan drugi subjekt",
  "expected.unique-id": () => "jedinstven id",
  "expected.unique-code": () => "jedinstvena vrijednost",
  "expected.code-rising": (p) => `više od ${p.previous}, jer raste s id-om`,
  "expected.records-once": () => "svaki zapis u samo jednom izvoru",
  "expected.utf8": () => "tekst u UTF-8",
  "expected.encoded-text": (p) => `tekst u kodnoj stranici ${p.label}`,
  "expected.link-inside": () => "poveznica koja ostaje unutar --data",
  "expected.source-once": () => "svaki izvor dohvaćen jednom",
  "expected.only-sources": (p) => `samo datoteke ${list(p.patterns)}`,
  "expected.source-directory": (p) => `mapa s datotekama ${list(p.patterns)} (traže se i u podmapama)`,
  "expected.column-name": () => "jedan od deset naziva polja kao stupac",
  "expected.column-once": () => "svaki stupac jednom",
  "expected.column-present": () => "stupac u retku zaglavlja",
  "expected.cell-count": (p) => `${count(p.count, "ćelija", "ćelije", "ćelija")} kao u zaglavlju`,
  "expected.csv": () => "ispravan CSV",
  "expected.header-row": () => "redak zaglavlja s nazivima polja",
  "expected.ndjson-line": () => "jedan JSON objekt u retku",
  "expected.json-array": () => "JSON niz subjekata",
  "expected.nothing-after-array": () => "ništa iza zatvorene zagrade ] niza",
  "expected.value": () => "vrijednost",
  "expected.array-end": () => "zatvorena zagrada ] niza",
  "expected.json-object": () => "JSON objekt",
  "expected.record-size": () => "zapis koji deset polja subjekta mogu ispuniti",
  "expected.cells-in-columns": () => "ćelije samo u stupcima zaglavlja",
  "expected.workbook": () => "radna knjiga (.xlsx ili .ods)",
  "expected.worksheet": () => "radni list",
  "expected.oib-text-cell": () => "11 znamenaka u tekstnoj ćeliji",
  "expected.oib-as-text": () => "11 znamenaka kao tekst",
  "expected.code-text-cell": () => "najmanje 4 znamenke u tekstnoj ćeliji",
  "expected.code-as-text": () => "najmanje 4 znamenke kao tekst",
  "expected.descriptor": () => "JSON objekt (opisnik Data Package)",
  "expected.meta-keys": () =>
    "samo title i path (izvori); name, title i path (licence); title, path, email i roles (suradnici); title i description (hr)",
  "expected.meta-title": () => "naslov koji nije prazan",
  "expected.meta-description": () => "opis koji nije prazan",
  "expected.meta-source-title": () => "naslov izvora koji nije prazan",
  "expected.meta-sources": () => "popis izvora",
  "expected.meta-one-source": () => "barem jedan izvor",
  "expected.meta-licence-name": () => "oznaka licence",
  "expected.meta-licence-title": () => "naslov licence koji nije prazan",
  "expected.meta-licences": () => "popis licenci",
  "expected.meta-one-licence": () => "barem jedna licenca",
  "expected.meta-url": () => "http(s) adresa",
  "expected.meta-iri": () =>
    "http(s) adresa koja je IRI kakva jest: razmak, navodnik, <, >, {, }, |, ^, obrnuti apostrof, obrnuta kosa crta ili kontrolni znak kodirani postotkom",
  "expected.meta-hr-title": () => "hrvatski naslov koji nije prazan",
  "expected.meta-hr-description": () => "hrvatski opis koji nije prazan",
  "expected.meta-contributors": () => "popis suradnika",
  "expected.meta-contributor-title": () => "naziv suradnika koji nije prazan",
  "expected.meta-email": () => "adresa e-pošte",
  "expected.meta-role": () => "publisher, contact, creator, author, maintainer ili contributor",

  "form.oib-number-cell": () => "OIB u brojčanoj ćeliji",
  "form.oib-zeros-lost": () => "OIB bez vodećih nula",
  "form.code-number-cell": () => "oznaka u brojčanoj ćeliji",
  "form.code-zeros-lost": () => "oznaka bez vodećih nula",

  "value.nothing": () => "ništa",
  "value.none": () => "nijedna",
  "value.no-directory": () => "mapa ne postoji",
  "value.empty-file": () => "prazna datoteka",
  "value.empty-sheet": () => "prazan radni list",
  "value.end-of-file": () => "kraj datoteke",
  "value.nested": (p) => `${p.array ? "niz" : "objekt"} ugniježđen ${n(p.depth)} ${plural(p.depth, "razinu", "razine", "razina")} duboko`,
  "value.long-number": (p) => `${p.shown} (${count(p.digits, "znamenka", "znamenke", "znamenaka")})`,
  "value.twice": (p) => `${p.before} pa zatim ${p.after}`,
  "value.characters": (p) => count(p.count, "znak", "znaka", "znakova"),
  "value.bytes": (p) => count(p.count, "bajt", "bajta", "bajtova"),
  "value.bytes-hex": (p) => `${plural(p.count, "bajt", "bajtovi", "bajtovi")} ${p.hex}`,
  "value.more-bad-bytes": (p) => `još ${count(p.count, "neispravan bajt", "neispravna bajta", "neispravnih bajtova")}`,
  "value.link-to": (p) => `poveznica na ${p.target}`,
  "value.link-read": (p) => `poveznica na ${p.target}, već pročitano`,
  "value.second-path": (p) => `drugi put do ${p.first}`,
  "value.ignored": (p) => `preskočeno: ${p.names.join(", ")}${p.more > 0 ? ` i još ${n(p.more)}` : ""}`,

  "hint.did-you-mean": (p) => `jeste li mislili ${p.name}?`,
  "hint.flat-fields": () => "polja subjekta su jednostavne vrijednosti",
  "hint.too-many-digits": () => "previše znamenaka za točan broj",
  "hint.json-last-value": () => "JSON zadržava samo posljednju vrijednost; koja je prava?",
  "hint.max-field-length": () => "--max-field-length podiže granicu",
  "hint.lone-surrogate": (p) => `usamljeni surogat \\u${p.hex}: prepolovljen znak?`,
  "hint.missing-field": () => "polje nedostaje",
  "hint.id-quoted": () => "tekst: napišite broj bez navodnika",
  "hint.new-subject": () => "novi subjekt? dajte mu id i oznaku veće od svih ostalih: oznake rastu s id-om",
  "hint.next-keys": (p) => `novi subjekt? sljedeći slobodni id je ${p.id}, a oznaka ${p.code}: oznake rastu s id-om`,
  "hint.id-fraction": () => "cijeli broj, bez decimala",
  "hint.lost-zeros": () => "broj gubi vodeće nule: napišite ga kao tekst",
  "hint.code-padding": (p) => `${count(p.digits, "znamenka", "znamenke", "znamenaka")} — tablica je izgubila vodeće nule?`,
  "hint.oib-scientific": () => "tablica ga je zapisala kao broj: oblikujte stupac kao tekst",
  "hint.text-number-cell": () => "tablica ga je zapisala kao broj: oblikujte stupac kao tekst",
  "hint.oib-zero-lost": () => "10 znamenaka — tablica je izgubila vodeću nulu?",
  "hint.digit-count": (p) => count(p.digits, "znamenka", "znamenke", "znamenaka"),
  "hint.oib-prefix": () => "bez prefiksa HR",
  "hint.oib-separators": () => "samo znamenke, bez razmaka i razdjelnika",
  "hint.lowercase": (p) => `napišite malim slovima: ${p.value}`,
  "hint.day-number": () => "redni broj dana iz tablice? oblikujte stupac kao tekst GGGG-MM-DD",
  "hint.flag-quoted": (p) => `tekst: napišite ${p.value} bez navodnika`,
  "hint.flag-json": () => "napišite true ili false, bez navodnika",
  "hint.flag-words": () => "napišite TOČNO ili NETOČNO (ili TRUE ili FALSE)",
  "hint.null-text": () => 'napišite "" kad podatka nema',
  "hint.no-month": (p) => `mjesec ${p.month} ne postoji`,
  "hint.no-year-zero": () => "godina 0 ne postoji",
  "hint.days-in-month": (p) => `${MONTHS[p.month - 1] ?? ""} ${p.year}. ima ${count(p.days, "dan", "dana", "dana")}`,
  "hint.croatian-date": (p) => `datum u obliku dan.mjesec.godina? napišite ${p.date}`,
  "hint.date-only": () => "samo datum, bez vremena",
  "hint.day-month-order": () => "dan/mjesec ili mjesec/dan? napišite GGGG-MM-DD",
  "hint.check-digit": (p) => `posljednja znamenka trebala bi biti ${p.digit} — tipfeler?`,
  "hint.new-level": () => "nova razina? objavljuje se kako je napisana",
  "hint.published-empty": () => "objavljuje se prazno",
  "hint.same-oib": (p) =>
    `id ${p.id} (oznaka ${p.code}) i id ${p.otherId} (oznaka ${p.otherCode}, na ${p.where}${p.row === undefined ? "" : `, redak ${p.row}`}) imaju isti OIB: ista ustanova dvaput?`,
  "hint.also-at": (p) => `također na ${p.where}`,
  "hint.code-also": (p) => `${p.code} ima i id ${p.id}, na ${p.where}`,
  "hint.just-before": (p) => `id ${p.previous}, odmah prije id-a ${p.id}, nalazi se na ${p.where}`,
  "hint.windows-1250-csv": (p) =>
    `datoteka izgleda kao Windows-1250: ${p.word} — spremite je iz Excela kao „CSV UTF-8” ili pokrenite s --encoding windows-1250`,
  "hint.windows-1250": (p) => `datoteka izgleda kao Windows-1250: ${p.word} — spremite je u UTF-8`,
  "hint.save-utf8": () => "spremite datoteku u UTF-8",
  "hint.first-located": () => "mjesto je navedeno samo za prve",
  "hint.not-followed": () => "ne slijedi se; --follow-outside je slijedi",
  "hint.link-loop": () => "drugi put do istih datoteka ili petlja; čitaju se jednom",
  "hint.read-once-as": (p) => `čita se jednom, kao ${p.first}`,
  "hint.save-spreadsheets": () => "spremite tablice kao .xlsx, .ods ili CSV UTF-8 da bi se čitale",
  "hint.data-dir": () => "je li --data prava mapa?",
  "hint.rename-column": (p) => `jeste li mislili ${p.name}? preimenujte stupac`,
  "hint.delete-or-rename": (p) => `obrišite stupac ili ga preimenujte u jedan od naziva ${list(p.names)}`,
  "hint.column-repeated": () => "stupac se ponavlja: obrišite jedan",
  "hint.column-missing": () => "stupac nedostaje: dodajte ga",
  "hint.delimiter": () => "razdjelnik nedostaje ili je suvišan, ili ga sadrži ćelija bez navodnika?",
  "hint.encoding-bytes": () => "bajtovi za koje ova kodna stranica nema znaka, u ovom ili sljedećem retku: je li --encoding ispravan?",
  "hint.csv-parser": (p) => `čitač CSV-a kaže: ${p.detail}`,
  "hint.syntax": (p) => `JSON.parse kaže: ${p.detail}`,
  "hint.syntax-at-column": (p) => `JSON.parse kaže: ${p.detail}, u stupcu ${p.column}`,
  "hint.syntax-in-record": (p) => `JSON.parse kaže: ${p.detail}, u zapisu koji počinje u retku ${p.line}`,
  "hint.syntax-on-line": (p) => `JSON.parse kaže: ${p.detail}, u retku ${p.line}`,
  "hint.one-object": () => "jedan objekt, a ne popis: stavite subjekte u [ ]",
  "hint.on-line": (p) => `u retku ${p.line}`,
  "hint.extra-comma": (p) => `suvišan zarez u retku ${p.line}?`,
  "hint.trailing-comma": (p) => `zarez na kraju u retku ${p.line}?`,
  "hint.empty-array": () => "napišite [] ako subjekata nema",
  "hint.cut-short": () => "je li datoteka odrezana?",
  "hint.one-record": () => "je li to jedan zapis?",
  "hint.unnamed-column": () => "stupac bez naziva polja: obrišite ga ili mu dajte naziv",
  "hint.unreadable": (p) => `ne može se pročitati: ${p.detail}`,
  "hint.read-as": (p) => `pročitano kao ${p.value}; oblikujte stupac kao tekst da se nule sačuvaju`,

  "says.repeats-source": (p) => `ponavlja svaki zapis iz ${p.other}: zadržite jedan`,

  "summary.valid": (p) =>
    `${count(p.subjects, "subjekt", "subjekta", "subjekata")} u ${count(p.files, "datoteci", "datoteke", "datoteka")}: ispravno (` +
    (p.known === undefined
      ? count(p.warnings, "upozorenje", "upozorenja", "upozorenja")
      : `${count(p.warnings, "novo upozorenje", "nova upozorenja", "novih upozorenja")}, ${n(p.known)} ${plural(p.known, "poznato", "poznata", "poznatih")}`) +
    ")",
  "summary.accepted": (p) =>
    `${count(p.count, "upozorenje prihvaćeno", "upozorenja prihvaćena", "upozorenja prihvaćeno")} kao poznato u ${p.path}: pregledajte datoteku i predajte je (commit) zajedno s podacima`,
  "summary.exported": (p) => `izvezeno ${count(p.count, "subjekt", "subjekta", "subjekata")} u ${p.out} (${p.format})`,
  "summary.built": (p) =>
    `izgrađeno ${count(p.count, "subjekt", "subjekta", "subjekata")}${p.reused > 0 ? ` (${n(p.reused)} nepromijenjeno, iz međuspremnika izgradnje)` : ""} u ${p.out}/: ${count(p.files, "datoteka", "datoteke", "datoteka")}, ` +
    `${n(p.written)} zapisano (${decimal(p.writtenBytes)}), ${n(p.unchanged)} nepromijenjeno, ${n(p.removed)} uklonjeno (${decimal(p.removedBytes)}) za ${p.seconds.toFixed(2).replace(".", ",")} s`,
  "summary.feed-started": (p) =>
    `promjene: novi slijed promjena počinje brojem ${p.sequence} (prethodno stanje nije nađeno: --previous <url> nastavlja slijed objavljenog mrežnog sjedišta)`,
  "summary.feed-unchanged": (p) => `od prošle izgradnje nijedan se subjekt nije promijenio (slijed promjena: i dalje broj ${p.sequence})`,
  "summary.feed-changes": (p) =>
    `subjekti od prošle izgradnje: ${n(p.added)} ${plural(p.added, "dodan", "dodana", "dodanih")}, ${n(p.removed)} ${plural(p.removed, "uklonjen", "uklonjena", "uklonjenih")}, ${n(p.changed)} ${plural(p.changed, "promijenjen", "promijenjena", "promijenjenih")} (slijed promjena: broj ${p.sequence - 1} -> ${p.sequence}, razlika ${p.diff})`,
  "summary.serving": (p) => `${p.url} (Ctrl-C zaustavlja)`,
  "summary.watching": (p) => `prati promjene u ${p.dir}/`,
  "summary.rebuilt": (p) => `ponovno izgrađeno: ${p.summary}`,
  "summary.watch-feed-off": (p) =>
    `slijed promjena je isključen: ${p.out} izgrađen je s --no-feed, pa ove izgradnje ne pišu /changes/ i zrcalna ih kopija ne može pratiti`,
  "summary.rebuild-failed": () => "ponovna izgradnja nije uspjela; i dalje se poslužuje posljednje ispravno mrežno sjedište",
  "summary.stopped": (p) =>
    `${WHAT[p.what]} zaustavljen${p.what === "export" ? "" : "a"} signalom ${p.signal}: privremene datoteke su uklonjene${p.left.length === 0 ? "" : `; nije sve uklonjeno: ${p.left.join("; ")}`}`,

  "summary.synced": (p) =>
    `+${n(p.added)} −${n(p.removed)} ~${n(p.changed)} ${plural(p.added + p.removed + p.changed, "subjekt", "subjekta", "subjekata")}, slijed ${p.from === null ? "nijedan" : String(p.from)} → ${p.to}${p.snapshot === undefined ? "" : ` (snimka: ${p.snapshot})`}`,
  "summary.synced-names": (p) => `  ${{ added: "dodano", removed: "uklonjeno", changed: "promijenjeno" }[p.kind]}: ${p.names}`,
  "summary.more-names": (p) => ` i još ${n(p.count)}`,
  "sync.no-local-copy": () => "nema provjerene lokalne kopije",
  "sync.not-behind": (p) =>
    `lokalna je kopija na broju ${p.local}, koji nije iza broja mrežnog sjedišta (${p.site}): to je drugi slijed promjena`,
  "sync.older-than-kept": (p) => `lokalna je kopija na broju ${p.local}, starijem od najstarije sačuvane razlike (${p.oldest})`,
  "sync.too-far-behind": (p) =>
    `lokalna je kopija na broju ${p.local}, ${count(p.behind, "razlika", "razlike", "razlika")} iza, više nego što ih jedno pokretanje primjenjuje (${n(p.max)})`,
  "sync.diffs-end": (p) => `razlike završavaju na inačici ${p.version}…, a ne na inačici mrežnog sjedišta`,
  "sync.diff-status": (p) => `razlika ${p.url} odgovorila je sa ${p.status}`,
  "sync.diff-not-applying": (p) => `razlika ${p.url} ne primjenjuje se na inačicu ${p.version}…`,
  "sync.diff-other-version": (p) => `razlika ${p.url} ne daje svoju to_version (dobiveno ${p.written}…)`,
  "sync.diff-unreadable": (p) => `razlika ${p.url} ne može se pročitati: ${p.detail}`,

  "serve.refused-host": (p) =>
    `odbijen Host ${p.host} s 400: nije u --allowed-hosts (${p.allowed.join(", ")}); dodajte ga ondje ako je vaš`,
  "serve.any-host": (p) => `${p.collection} za bilo koji Host (SIGTERM zaustavlja nakon odgovora u tijeku)`,
  "serve.allowed-hosts": (p) =>
    `${p.origin}/healthz odgovara na bilo koji Host; API odgovara na Host ${p.allowed.join(", ")}: curl -H 'Host: ${p.host}' ${p.collection} (SIGTERM zaustavlja nakon odgovora u tijeku)`,
  "serve.stopped": () => "zaustavljeno",

  "progress.bar": (p) =>
    `${n(p.done)}/${p.unit === "files" ? count(p.total, "datoteka", "datoteke", "datoteka") : count(p.total, "zahtjev", "zahtjeva", "zahtjeva")}  ${n(p.rate)}/s  još ${p.eta} s`,

  "preflight.does-not-fit": (p) =>
    `mrežno sjedište ne stane na ${p.host}: ${p.over.join("; ")}; ${p.fits.length === 0 ? "nijedna mogućnost ove izgradnje ne stane; odaberite drugi --target" : `stane s ${p.fits.join(" ili s ")}`}${p.source === undefined ? "" : ` (ograničenja: ${p.source})`}`,
  "host.none": () => "nijedan određeni poslužitelj",
  "host.netlify": () => "Netlify",
  "host.cloudflare-free": () => "Cloudflare Workers (besplatni plan)",
  "host.cloudflare-paid": () => "Cloudflare Workers (plaćeni plan)",
  "host.static": () => "običan statički poslužitelj",
  "preflight.fit": (p) => `${p.flags} (${files(p.files)}${p.note === undefined ? "" : `; ${p.note}`})`,
  "preflight.query-links": () =>
    "njegove stranice povezuju se upitom (?limit=&offset=), na koji poslužitelj bez usmjeravanja ne može odgovoriti",
  "preflight.files": (p) => `${files(p.files)}, a prima najviše ${files(p.max)} po objavi`,
  "preflight.directory": (p) => `${files(p.entries)} u ${p.path}/, a prima najviše ${files(p.max)} po mapi`,
  "preflight.file-bytes": (p) => `datoteka od ${bytes(p.bytes)} (${p.path}), a prima najviše ${bytes(p.max)} po datoteci`,
  "preflight.all-derived": () => "nijedna stranica nije unaprijed izrađena: svaki se zahtjev izvodi iz dijelova sa zapisima",
  "preflight.one-limit": () => "klijenti listaju samo stranicama te veličine (limit)",
  "preflight.other-limits-derived": () => "zahtjevi s drugim veličinama stranice (limit) izvode se",

  "check.request": (p) => `${p.method} ${p.url} (${KINDS[p.probe][0]}):`,
  "check.difference": (p) => `  ${DIFFERS[p.what] ?? p.what}: očekuje se ${answered(p.expected)}, a stiglo je ${answered(p.got)}`,
  "check.body": (p) => `  tijelo: prva razlika na bajtu ${p.offset}`,
  "check.body-expected": (p) => `    očekivano: ${answered(p.expected)}`,
  "check.body-got": (p) => `    stiglo:    ${answered(p.got)}`,
  "check.more": (p) =>
    `… i još ${n(p.more)} ${plural(p.more, "zahtjev koji se razlikuje", "zahtjeva koji se razlikuju", "zahtjeva koji se razlikuju")} (--json ih navodi sve)`,
  "check.derived-origin": (p) =>
    `napomena: mrežno sjedište izgrađeno je za ${p.base}; na ${p.origin} svaka se stranica izvodi iz zapisa, pa unaprijed izrađene datoteke nisu pročitane (za njih provjerite ${p.base})`,
  "check.without-query": (p) =>
    `${count(p.count, "zahtjev s upitom", "zahtjeva s upitom", "zahtjeva s upitom")} (od toga ${n(p.searches)} za pretragu, filtriranje ili poredak) ${plural(p.count, "dobio je odgovor", "dobila su odgovor", "dobilo je odgovor")} kao da upita nema, npr. ${p.first}: poslužitelj ne prosljeđuje upit (query string) usmjerivaču (običan statički poslužitelj ili pravilo koje poslužuje datoteku bez obzira na upit); pretraga, filtriranje, poredak i straničenje traže poslužitelj koji usmjerava: Netlifyjevu rubnu funkciju, Worker ili subjekti serve (docs/hosting.md)`,
  "check.stale-nginx": (p) =>
    `konfiguracija nginxa napravljena je za drugu izgradnju (sjedište ${p.configured}, a ova je izgradnja ${p.built})${p.missed ?? ""}: ponovno je napravite sa subjekti nginx, zatim pokrenite nginx -t i ponovno učitajte nginx`,
  "check.stale-none-from-files": (p) =>
    `, pa nijedan od ${n(p.answers)} odgovora koje bi nginx trebao slati iz datoteka sjedišta nije stigao iz datoteke (datoteka stranica te izgradnje više nema)`,
  "check.stale-some-from-files": (p) =>
    `, pa je ${n(p.count)} od ${n(p.answers)} odgovora koje bi nginx trebao slati iz datoteka sjedišta stiglo od subjekti serve, npr. ${p.first}`,
  "check.not-from-files": (p) =>
    `${n(p.count)} od ${n(p.answers)} odgovora koje bi nginx trebao slati iz datoteka sjedišta stiglo je od subjekti serve (bez ${p.header}: file), npr. ${p.first}: konfiguracija nginxa starija je od izgradnje; ponovno pokrenite subjekti nginx, zatim nginx -t, pa ponovno učitajte nginx`,
  "check.all-from-files": (p) =>
    `svi odgovori koje bi nginx trebao slati iz datoteka sjedišta (${count(p.answers, "odgovor", "odgovora", "odgovora")}) stigli su iz datoteka`,
  "check.deadline": (p) =>
    `zaustavljeno po isteku roka od ${decimal(String(p.seconds))} s: ${n(p.unchecked)} od ${n(p.total)} zahtjeva nije provjereno (zadajte dulji --deadline ili --sample n)`,
  "check.kind-count": (p) => `${n(p.count)} ${plural(p.count, ...KINDS[p.probe])}`,
  "check.summary": (p) => {
    const stale = p.otherBuild
      ? ", konfiguracija nginxa pripada drugoj izgradnji"
      : p.notFromFiles === 0
        ? ""
        : `, ${n(p.notFromFiles)} ${plural(p.notFromFiles, "nije", "nisu", "nije")} iz datoteka`;
    const before =
      p.checked === undefined ? "" : ` (${n(p.checked)} ${plural(p.checked, "provjeren", "provjerena", "provjereno")} prije isteka roka)`;
    const verdict =
      p.failed === 0 ? "svi se podudaraju" : `${n(p.failed)} ${plural(p.failed, "se razlikuje", "se razlikuju", "se razlikuje")}`;
    return (
      `${p.origin} uspoređen s ${p.dir} (${count(p.subjects, "subjekt", "subjekta", "subjekata")}): ${count(p.total, "zahtjev", "zahtjeva", "zahtjeva")}${before}` +
      ` (${p.kinds}) za ${p.seconds.toFixed(1).replace(".", ",")} s: ${verdict}${stale}`
    );
  },

  "warning.no-licence": (p) =>
    `licenca nije navedena: objavljeni opis (naslovna stranica, datapackage.json, DCAT katalog) ne navodi nijednu; dodajte ${p.file} s "licenses" u mapu podataka (docs/open-data.md)`,
  "warning.cache-unwritable": (p) => {
    const where = p.where === "" ? "međuspremnik izgradnje" : p.where;
    const fix = p.full
      ? `oslobodite prostor na disku na kojem je ${where}, ili zadajte --cache-dir s mapom na drugom disku, ili --no-cache`
      : "zadajte --cache-dir s mapom u koju ovaj korisnik smije pisati, ili --no-cache";
    return `međuspremnik izgradnje ne može se zapisati u ${where} (${reason(p.code)}): izgradnja se nastavlja bez njega; ${fix}`;
  },
  "warning.search-heap": (p) =>
    `dretvi pretrage ponestalo je njezinih ${p.mb} MB memorije (nazivi ili mjesta od više tisuća znakova?): datoteke pretrage izrađene su ponovo na glavnoj dretvi, pa je stranica potpuna, a izgradnja je trajala dulje; --threads 0 izrađuje ih ondje od početka`,

  "lock.took-over": (p) => `${p.shown}: preuzeto zaključavanje procesa ${p.pid} (subjekti ${p.command} od ${p.since}), koji više ne radi`,
  "lock.waiting": (p) => `${p.shown} upravo piše ${holder(p)}: čeka se da završi`,

  "usage.unknown-option": (p) => `greška: nepoznata opcija '${p.option}'`,
  "usage.unknown-command": (p) => `greška: nepoznata naredba '${p.command}'`,
  "usage.did-you-mean": (p) => `(Jeste li mislili ${either(p.names)}?)`,
  "usage.missing-argument": (p) => `greška: nedostaje obavezni argument '${p.argument}'`,
  "usage.option-missing-value": (p) => `greška: opciji '${p.option}' nedostaje vrijednost`,
  "usage.missing-option": (p) => `greška: obavezna opcija '${p.option}' nije zadana`,
  "usage.conflicting-options": (p) => `greška: ${source(p.one)} i ${source(p.another)} ne mogu se zadati zajedno`,
  "usage.too-many-arguments": (p) =>
    `greška: previše argumenata${p.command === undefined ? "" : ` za naredbu '${p.command}'`}: očekuje se ${count(p.expected, "argument", "argumenta", "argumenata")}, a zadano je ${n(p.got)}`,
  "usage.invalid-option-value": (p) => `greška: vrijednost '${p.value}' opcije '${p.option}' nije ispravna: ${p.reason}`,
  "usage.invalid-env-value": (p) =>
    `greška: vrijednost '${p.value}' opcije '${p.option}' iz varijable okruženja '${p.variable}' nije ispravna: ${p.reason}`,
  "usage.invalid-argument": (p) => `greška: vrijednost '${p.value}' argumenta '${p.argument}' nije ispravna: ${p.reason}`,
  "usage.choices": (p) => `dopuštene vrijednosti su ${list(p.choices)}`,
  "usage.usage": (p) => `Uporaba: ${p.usage}`,
  "usage.more": (p) => `Za više informacija pokušajte '${p.help}'.`,
  "invalid.positive-integer": (p) => `očekuje se pozitivan cijeli broj, a zadano je "${p.text}"`,
  "invalid.encoding": (p) => `"${p.text}" nije oznaka kodne stranice (npr. utf-8 ili windows-1250)`,
  "invalid.connect": (p) => `očekuje se host:port, npr. 127.0.0.1:8080, a zadano je "${p.text}"`,
  "invalid.form": (p) => `"${p.form}" nije oblik; oblici su plain, api i json`,
  "invalid.url": (p) => `očekuje se apsolutni URL, npr. https://example.org, a zadano je "${p.text}"`,
  "invalid.http": (p) => `očekuje se http ili https, a zadano je "${p.text}"`,
  "invalid.downloads": (p) => `očekuje se nešto od ${list(p.formats)} (odvojeno zarezima) ili none, a zadano je "${p.got}"`,
  "invalid.keep-changes": (p) => `očekuje se broj razlika (npr. 100) ili dana (npr. 90d), a zadano je "${p.text}"`,
  "invalid.port": (p) => `očekuju se vrata od 0 do 65535 (0: bilo koja slobodna), a zadano je "${p.text}"`,
  "invalid.host-name": (p) =>
    `"${p.host}" nije naziv poslužitelja (npr. registry.example.hr, .example.hr za njega i njegove poddomene, ili *)`,
  "invalid.nginx-name": (p) => `"${p.text}" nije naziv od malih slova, znamenki i _ koji počinje slovom (subjekti, subjekti_staging)`,
  "invalid.upstream": (p) => `"${p.text}" nije host:port ni unix:/putanja na kojoj radi \`subjekti serve\``,
  "invalid.listen-address": (p) => `"${p.address}" nisu vrata ni adresa:vrata (8080, 127.0.0.1:8080, [::1]:8080)`,
  "invalid.listen-parameter": (p) => `"${p.parameter}" ovdje nije parametar za listen (${list(p.parameters)})`,
  "invalid.nginx-path": (p) => `"${p.text}": putanja za nginx ovdje ne smije sadržavati razmake, navodnike, vitičaste zagrade, ; $ ni \\`,
  "invalid.server-name": (p) => `"${p.name}" nije naziv poslužitelja za server_name (npr. registry.example.hr, *.example.hr ili _)`,
  "usage.links-files-limits": () =>
    "greška: --links files traži barem jednu veličinu u --limits: običan statički poslužitelj nema usmjerivač koji bi izveo stranice",
  "usage.export-extension": (p) => `greška: --out ${p.out}: očekuje se naziv koji završava s .xlsx ili .csv (iz njega se čita oblik)`,
  "usage.export-format": (p) =>
    `greška: --out ${p.out} ne završava s .${p.format}, a --format ${p.format} piše taj oblik: izgradnja bi ga čitala kao ${p.extension === "" ? "ništa" : p.extension}; nazovite ga .${p.format}`,

  "machine.permission": (p) => `${p.where}: pristup odbijen (${p.syscall}); provjerite dozvole ili odaberite drugu mapu`,
  "machine.read-only": (p) =>
    `${p.where}: datotečni sustav je samo za čitanje (${p.syscall}); odaberite mapu na sustavu u koji se može pisati`,
  "machine.no-space": (p) =>
    `nema mjesta na disku na kojem je ${p.where === "" ? "ono što se zapisuje" : p.where}${p.quota ? " (kvota diska je potrošena)" : ""}: oslobodite prostor na tom disku (df ${p.dir}) ili ${p.temporary ? "postavite TMPDIR na mapu na drugom disku" : "odaberite mapu na drugom disku"}`,
  "machine.directory-for-file": (p) => `${p.where}: mapa na mjestu gdje treba biti datoteka; uklonite je ili odaberite drugu mapu`,
  "machine.file-for-directory": (p) => `${p.where}: datoteka na mjestu gdje treba biti mapa; uklonite je ili odaberite drugu mapu`,
  "machine.open-files": () => "previše otvorenih datoteka: podignite ograničenje (ulimit -n) i pokušajte ponovno",
  "machine.io": (p) =>
    `${p.where}: ulazno-izlazna greška (${p.syscall}; disk koji otkazuje ili nestali mrežni datotečni sustav): provjerite disk`,

  "error.locked": (p) => `${p.shown} upravo piše ${holder(p)}: pričekajte da završi ili zadajte --wait da se pričeka`,
  "error.export-cell-too-long": (p) =>
    `id ${p.id}: ${p.field} ima ${count(p.count, "znak", "znaka", "znakova")}, više nego što ćelija radne knjige prima (${n(p.max)}), pa bi ga Excel pri spremanju skratio; izvezite CSV (--format csv) ili ga skratite u izvoru`,
  "error.export-not-same": (p) =>
    `--out ${p.out}: zapisana datoteka ne daje pri čitanju izvezene zapise (${p.why}), pa nije zapisana; prijavite to s podacima koji to uzrokuju`,
  "reason.read-back-problem": (p) => `${p.field ?? "zapis"}${p.line === undefined ? "" : ` u retku ${p.line}`}: očekuje se ${p.expected}`,
  "reason.read-back-count": (p) => `pročitano ${n(p.read)} od ${n(p.count)} zapisa`,
  "reason.value-differs": () => "jedna se vrijednost razlikuje",
  "error.check-deadline": (p) =>
    `${p.origin} nije provjeren cijeli unutar --deadline ${p.deadline} s: provjereno ${n(p.checked)} od ${n(p.total)} zahtjeva, od njih ${n(p.failed)} ${plural(p.failed, "se razlikuje", "se razlikuju", "se razlikuje")}`,
  "error.invalid-data": (p) => `${count(p.count, "greška", "greške", "grešaka")} u podacima; ništa nije zapisano`,
  "error.known-problems-invalid": (p) =>
    `${p.path}: očekuje se {"accepted": [{"field", "expected", "value"}, …]} kako ga piše subjekti validate --accept; zapišite ga ponovno sa subjekti validate --accept`,
  "error.port-in-use": (p) => `vrata ${p.port} na ${p.host} su zauzeta: zadajte druga s --port (ili --port 0 za bilo koja slobodna)`,
  "error.not-an-address": (p) => `nije moguće slušati na ${p.host}: to nije adresa ovog računala; zadajte drugu s --host`,
  "error.base-url-path": (p) =>
    `--base-url ${p.base}: osnovni URL smije biti samo ishodište (npr. ${p.origin}): API odgovara na /api/subjekti/ na svakom poslužitelju, pa bi poveznice pod putanjom vraćale 404; dajte API-ju vlastito ime poslužitelja (registry.example.hr), vidi docs/production.md`,
  "error.data-is-file": (p) => `--data ${p.data} je datoteka: zadajte mapu s datotekama *.json, *.ndjson, *.csv, *.xlsx i *.ods`,
  "error.out-is-file": (p) => `--out ${p.out ?? ""} je datoteka, a ne mapa: zadajte drugi --out ili premjestite datoteku`,
  "error.out-is-plain": (p) =>
    `--out ${p.out} je mrežno sjedište od običnih datoteka (izgrađeno s --links files): za ponovnu izgradnju zadajte --links files ili drugi --out`,
  "error.out-not-plain": (p) =>
    `--out ${p.out} već sadrži nešto drugo: s --links files postaje poveznica na izgrađeno stablo (${p.base}.<hash>) koja se mijenja jednim preimenovanjem; zadajte --out koji još ne postoji (ili uklonite ovaj)`,
  "error.export-no-dir": (p) => `--out ${p.out}: mapa ${p.dir} ne postoji: napravite je ili zadajte drugi --out`,
  "error.export-into-data": (p) =>
    `--out ${p.out} je unutar --data ${p.data}: sljedeća bi ga izgradnja čitala uz izvore iz kojih je nastao, svaki zapis dvaput; izvezite ga drugdje pa njime zamijenite izvore (subjekti export --out ${p.name}, zatim ga premjestite u ${p.data} i uklonite izvore koje zamjenjuje)`,
  "error.over-limits": (p) => `${p.detail}; ili zadajte --over-limits warn da se ipak izgradi`,
  "error.source-date-epoch": (p) =>
    `SOURCE_DATE_EPOCH je "${p.epoch}": očekuju se cijele sekunde od 1970. (npr. 1700000000) ili ga uklonite`,
  "error.feed-snapshot-missing": (p) =>
    `${p.state} navodi snimku ${p.snapshot}, koja se ne može pročitati (${p.detail}): uklonite ${p.changes} da započne novi slijed promjena`,
  "error.feed-refused": (p) =>
    `${p.where}: ${p.detail}: prethodni slijed promjena je odbijen; popravite to sjedište, navedite drugo s --previous ili uklonite njegov direktorij changes/ za novi slijed`,
  "error.feed-unreachable": (p) =>
    `prethodni slijed promjena na ${p.url} ne može se pročitati: ${p.detail}; zadajte --previous s dostupnim mrežnim sjedištem ili mapom`,
  "error.feed-status": (p) =>
    `${p.url} je odgovorio sa ${p.status}: zadajte --previous s ishodištem objavljenog mrežnog sjedišta (npr. https://registry.example.hr)`,
  "error.feed-state": (p) =>
    `${p.where}: to nije stanje slijeda promjena koje ova inačica čita (${p.detail}): uklonite ga da započne novi slijed promjena`,
  "error.feed-mismatch": (p) =>
    `${p.where} navodi inačicu ${p.version}…, ali snimka ${p.snapshot} ima sažetak ${p.actual}…: prethodni slijed promjena je oštećen; vratite ga ili uklonite njegovu mapu changes/ da započne novi`,
  "error.sync-refused": (p) => `${p.where}: ${p.detail}: sinkronizacija nije moguća; lokalna kopija je ostavljena kakva je bila`,
  "error.sync-snapshot-status": (p) =>
    `snimka ${p.url} odgovorila je sa ${p.status}: usklađivanje nije moguće; pokušajte ponovno kad mrežno sjedište bude cjelovito`,
  "error.sync-mismatch": (p) =>
    `snimka ${p.url} ima sažetak ${p.written}…, a ne inačicu stanja ${p.version}…: mrežno sjedište nije dosljedno (objava u tijeku?); lokalna kopija ostaje kakva je bila, pokušajte ponovno kasnije`,
  "error.sync-unreachable": (p) => `${p.url} nije dostupan: ${p.detail}`,
  "error.untrusted-certificate": (p) =>
    `${p.url} nije dostupan: ${p.detail}: zadajte njegov CA s --ca <datoteka> (PEM) ili preskočite provjeru certifikata s --insecure`,
  "error.sync-no-feed": (p) =>
    `${p.url} je odgovorio sa ${p.status}: je li to ishodište mrežnog sjedišta i je li izgrađeno sa slijedom promjena?`,
  "error.sync-bad-state": (p) => `${p.url}: to nije stanje slijeda promjena koje ova inačica čita (${p.detail})`,
  "error.unusable-site": (p) =>
    `${p.dir} nema upotrebljivo mrežno sjedište (${p.problem}): ${p.again ? "ponovno" : "najprije"} pokrenite \`npm run build\``,
  "error.no-built-site": (p) =>
    `${p.dir} ne sadrži izgrađeno mrežno sjedište (${p.detail}): zadajte --dir <izgrađeno mrežno sjedište> ili najprije pokrenite \`npm run build\``,
  "error.env-port": (p) => `PORT=${p.text} u okruženju: ${p.detail}; uklonite ga ili zadajte --port`,
  "error.env-base-url": (p) =>
    `${p.variable}=${p.text} u okruženju (ishodište poveznica kad --base-url nije zadan): ${p.detail}; postavite ga na adresu mrežnog sjedišta ili zadajte --base-url`,
  "error.unreachable": (p) => `${p.where}${p.connect === undefined ? "" : ` (spajanjem na ${p.connect})`}: ${p.detail}: ${p.hint}`,
  "hint.connect-certificate": () => "zadajte njegov CA s --ca <datoteka> (PEM) ili preskočite provjeru certifikata s --insecure",
  "hint.connect-protocol": () => "je li to http umjesto https (ili obrnuto)?",
  "hint.connect-refused": () => "radi li poslužitelj, i to na tim vratima?",
  "hint.connect-host": () => "provjerite naziv poslužitelja (ili pošaljite zahtjeve drugamo s --connect host:port)",
  "hint.connect-other": () => "radi li poslužitelj i može li se odavde doći do njega?",
  "error.not-url": (p) => `"${p.url}" nije URL: zadajte adresu objave, npr. https://example.org`,
  "error.not-http": (p) => `"${p.url}" nije http ni https URL`,
  "error.site-cannot-answer": (p) => `izgrađeno mrežno sjedište ne može odgovoriti na ${p.target}: ${p.detail}`,
  "error.ca-unreadable": (p) => `--ca ${p.ca}: ne može se pročitati (${p.detail}): zadajte PEM datoteku s certifikatima`,
  "error.ca-not-pem": (p) => `--ca ${p.ca}: u njoj nema PEM certifikata (očekuje se -----BEGIN CERTIFICATE-----)`,
  "error.check-failed": (p) => `${n(p.failed)} od ${n(p.total)} zahtjeva prema ${p.origin} razlikuje se od ${p.dir}`,
  "error.check-not-from-files": (p) =>
    `${count(p.count, "odgovor", "odgovora", "odgovora")} sa ${p.origin} koje bi nginx trebao slati iz datoteka stiglo je od subjekti serve: ponovno napravite konfiguraciju nginxa (subjekti nginx) i ponovno ga učitajte`,
  "error.check-stale-nginx": (p) =>
    `konfiguracija nginxa na ${p.origin} napravljena je za drugu izgradnju, ne za ${p.dir}: ponovno je napravite sa subjekti nginx i ponovno učitajte nginx (nginx -t && nginx -s reload)`,
  "error.nginx-root": (p) =>
    `--dir ${p.dir}: korijen za nginx ovdje ne smije sadržavati razmake, navodnike, vitičaste zagrade, ; $ ni \\; premjestite mrežno sjedište`,
  "error.tls-needs-certificate": (p) => `--listen '${p.listen}' traži --ssl-certificate <datoteka> i --ssl-certificate-key <datoteka>`,
  "error.tls-needs-listen": (p) => `--ssl-certificate i --ssl-certificate-key traže --listen sa ssl (npr. '443 ssl'), a ne '${p.listen}'`,
};
