/**
 * A seeded, deterministic generator of subjects for tests and benchmarks: any count, streamed to
 * a file (never all records in memory), as a JSON array (the maintainers' format, byte-for-byte
 * the layout of data/subjekti.json), NDJSON or CSV. Same seed and count, same bytes.
 *
 *   tsx scripts/generate-subjects.ts --count 100000 --seed 1 --out data.json
 *
 * The format is the --out name's extension (`.json`, `.ndjson`, `.csv`, in any case) unless
 * --format names one; stdout, or a name of another extension, is a JSON array.
 *
 * Every record is a pure function of (seed, index), so a test can make record 123456 of a
 * million without making the others, and a benchmark can change one record and keep the rest.
 * `--shuffle` writes the same records in an order shuffled by the seed (unsorted input, as a
 * hand-kept list or a merge of exports would be): the order is a permutation of the indexes, 4
 * bytes a record (40 MB at 10M), never the records themselves.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { pathToFileURL } from "node:url";
import type { Writable } from "node:stream";
import { Command, InvalidArgumentError, Option } from "commander";
import type { Subject } from "../src/core/render-page.ts";
import { SUBJECT_FIELDS } from "../src/core/render-page.ts";
import { mulberry32, type Random } from "../src/common/seeded-random.ts";

export const FORMATS = ["json", "ndjson", "csv"] as const;
export type Format = (typeof FORMATS)[number];

export interface GenerateOptions {
  readonly count: number;
  /** Any text; hashed to the 32-bit seed of every record. */
  readonly seed: string;
  readonly format: Format;
  /** Change this record's name (only its name), e.g. to time an incremental rebuild. */
  readonly edit?: number;
  /** Write the records in an order shuffled by the seed, not in id order. */
  readonly shuffle?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Randomness: a 32-bit hash of (seed, index, purpose) seeds a mulberry32 stream per record, so
// records are independent of each other and of the order they are made in.

/** FNV-1a of the seed's text: `--seed 42` and `--seed abc` both work. */
export function seedFromText(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193);
  return h >>> 0;
}

/** A murmur3-style finaliser: mixes a few integers into one well-spread 32-bit number. */
function mix(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35) ^ Math.imul(c | 1, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function below(random: Random, n: number): number {
  return Math.floor(random() * n);
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[below(random, items.length)] as T;
}

// ---------------------------------------------------------------------------------------------
// Vocabulary, in the patterns of the real registry (data/subjekti.json).

/** A town: its name (nominative), "of the town" (genitive) and "in the town" (locative). */
interface Town {
  readonly n: string;
  readonly g: string;
  readonly l: string;
}

function town(n: string, g: string, l: string): Town {
  return { n, g, l };
}

// Word lists are kept dense to read (prettier-ignore).
// The first ones repeat so that, as in the registry, Zagreb and the big cities dominate.
// prettier-ignore
const TOWNS: readonly Town[] = [
  town("Zagreb", "Zagreba", "Zagrebu"),
  town("Zagreb", "Zagreba", "Zagrebu"),
  town("Zagreb", "Zagreba", "Zagrebu"),
  town("Zagreb", "Zagreba", "Zagrebu"),
  town("Split", "Splita", "Splitu"),
  town("Rijeka", "Rijeke", "Rijeci"),
  town("Osijek", "Osijeka", "Osijeku"),
  town("Zadar", "Zadra", "Zadru"),
  town("Pula", "Pule", "Puli"),
  town("Dubrovnik", "Dubrovnika", "Dubrovniku"),
  town("Varaždin", "Varaždina", "Varaždinu"),
  town("Karlovac", "Karlovca", "Karlovcu"),
  town("Šibenik", "Šibenika", "Šibeniku"),
  town("Slavonski Brod", "Slavonskog Broda", "Slavonskom Brodu"),
  town("Vinkovci", "Vinkovaca", "Vinkovcima"),
  town("Čakovec", "Čakovca", "Čakovcu"),
  town("Sisak", "Siska", "Sisku"),
  town("Bjelovar", "Bjelovara", "Bjelovaru"),
  town("Koprivnica", "Koprivnice", "Koprivnici"),
  town("Požega", "Požege", "Požegi"),
  town("Vukovar", "Vukovara", "Vukovaru"),
  town("Velika Gorica", "Velike Gorice", "Velikoj Gorici"),
  town("Virovitica", "Virovitice", "Virovitici"),
  town("Gospić", "Gospića", "Gospiću"),
  town("Poreč", "Poreča", "Poreču"),
  town("Samobor", "Samobora", "Samoboru"),
  town("Krapina", "Krapine", "Krapini"),
  town("Đakovo", "Đakova", "Đakovu"),
  town("Križevci", "Križevaca", "Križevcima"),
  town("Pazin", "Pazina", "Pazinu"),
  town("Kutina", "Kutine", "Kutini"),
  town("Opatija", "Opatije", "Opatiji"),
  town("Daruvar", "Daruvara", "Daruvaru"),
  town("Dugo Selo", "Dugog Sela", "Dugom Selu"),
  town("Zaprešić", "Zaprešića", "Zaprešiću"),
  town("Rovinj", "Rovinja", "Rovinju"),
  town("Nova Gradiška", "Nove Gradiške", "Novoj Gradiški"),
  town("Ivanić-Grad", "Ivanić-Grada", "Ivanić-Gradu"),
  town("Metković", "Metkovića", "Metkoviću"),
  town("Knin", "Knina", "Kninu"),
  town("Đurđevac", "Đurđevca", "Đurđevcu"),
  town("Našice", "Našica", "Našicama"),
  town("Čazma", "Čazme", "Čazmi"),
  town("Ogulin", "Ogulina", "Ogulinu"),
  town("Senj", "Senja", "Senju"),
  town("Trogir", "Trogira", "Trogiru"),
  town("Omiš", "Omiša", "Omišu"),
  town("Sinj", "Sinja", "Sinju"),
  town("Makarska", "Makarske", "Makarskoj"),
  town("Novska", "Novske", "Novskoj"),
  town("Labin", "Labina", "Labinu"),
  town("Umag", "Umaga", "Umagu"),
  town("Otočac", "Otočca", "Otočcu"),
  town("Petrinja", "Petrinje", "Petrinji"),
  town("Belišće", "Belišća", "Belišću"),
  town("Beli Manastir", "Belog Manastira", "Belom Manastiru"),
  town("Županja", "Županje", "Županji"),
  town("Mali Lošinj", "Malog Lošinja", "Malom Lošinju"),
  town("Biograd na Moru", "Biograda na Moru", "Biogradu na Moru"),
  town("Prelog", "Preloga", "Prelogu"),
  town("Lepoglava", "Lepoglave", "Lepoglavi"),
  town("Zagreb-Dubrava", "Dubrave", "Dubravi"),
  town("Zagreb-Sesvete", "Sesveta", "Sesvetama"),
];

// prettier-ignore
const MUNICIPALITIES: readonly string[] = [
  "Pakoštane", "Ražanac", "Borovo", "Sikirevci", "Mljet", "Vrsar", "Hum na Sutli", "Sveti Martin na Muri",
  "Kravarsko", "Veliko Trgovišće", "Draškovec", "Bošnjaci", "Čeminac", "Đulovac", "Šodolovci", "Žminj",
  "Štefanje", "Čačinci", "Ližnjan", "Brtonigla", "Kaštelir-Labinci", "Sveta Nedelja", "Tribunj", "Kali",
  "Preko", "Bibinje", "Posedarje", "Lišane Ostrovičke", "Dicmo", "Klis", "Lećevica", "Podbablje",
  "Zmijavci", "Šestanovac", "Tučepi", "Podgora", "Župa dubrovačka", "Konavle", "Ston", "Slivno",
  "Kula Norinska", "Zažablje", "Gornji Kneginec", "Sračinec", "Vidovec", "Cestica", "Petrijanec",
  "Martijanec", "Mali Bukovec", "Sveti Ilija", "Beretinec", "Gola", "Ferdinandovac", "Kloštar Podravski",
  "Molve", "Novigrad Podravski", "Hlebine", "Legrad", "Đelekovec", "Sokolovac", "Rasinja", "Koprivnički Bregi",
  "Gornja Rijeka", "Živogošće", "Hercegovac", "Vrpolje", "Ernestinovo", "Čepin", "Šenkovec", "Nedelišće",
];

// prettier-ignore
const PEOPLE: readonly string[] = [
  "Ivana Gorana Kovačića", "Antuna Gustava Matoša", "Blaž Tadijanović", "Ivan Meštrović", "Marije Jurić Zagorke",
  "Slavka Kolara", "Jure Filipovića", "Pavla Štoosa", "Braće Radić", "Ante Starčevića", "Matije Gupca",
  "Augusta Šenoe", "Petra Preradovića", "Vladimira Nazora", "Dobriše Cesarića", "Ivana Mažuranića",
  "Frana Galovića", "Josipa Kozarca", "Tina Ujevića", "Ljudevita Gaja", "Nikole Tesle", "Ruđera Boškovića",
  "Dragutina Tadijanovića", "Ivane Brlić-Mažuranić", "Zrinskih i Frankopana", "Milana Begovića",
  "Đure Deželića", "Šimuna Kožičića Benje", "Vjekoslava Paraća", "Ksavera Šandora Gjalskog", "Stjepana Radića",
  "Eugena Kumičića", "Vladimira Vidrića", "Augusta Cesarca", "Grigora Viteza", "Mate Lovraka",
  "Silvija Strahimira Kranjčevića", "Julija Klovića", "Kralja Tomislava", "Kneza Branimira", "Bartola Kašića",
  "Marina Držića", "Ivana Gundulića", "Alberta Štrige", "Elly Bašić", "Ante Jagar", "Jurja Barakovića",
];

// prettier-ignore
const KINDERGARTENS: readonly string[] = [
  "Bambi", "Radost", "Krijesnice", "Morski konjić", "Šumska jagoda", "Žabica", "Pčelica", "Suncokret",
  "Maslačak", "Zvončić", "Iskrica", "Ivančica", "Tratinčica", "Vrapčić", "Cvrčak", "Latica", "Ribica",
  "Leptirić", "Sunčica", "Čarobni svijet", "Bubamara", "Lastavica", "Vjeverica", "Škrinjica",
  "Snježna pahulja", "Medo Brundo", "Ciciban", "En ten tini", "Žirek", "Đurđica", "Potočić", "Čarobna šuma",
];

// prettier-ignore
const COUNTIES: readonly string[] = [
  "Zagrebačke", "Krapinsko-zagorske", "Sisačko-moslavačke", "Karlovačke", "Varaždinske",
  "Koprivničko-križevačke", "Bjelovarsko-bilogorske", "Primorsko-goranske", "Ličko-senjske",
  "Virovitičko-podravske", "Požeško-slavonske", "Brodsko-posavske", "Zadarske", "Osječko-baranjske",
  "Šibensko-kninske", "Vukovarsko-srijemske", "Splitsko-dalmatinske", "Istarske", "Dubrovačko-neretvanske",
  "Međimurske",
];

// prettier-ignore
const SCHOOL_KINDS: readonly string[] = [
  "Srednja škola", "Gimnazija", "Tehnička škola", "Ekonomska škola", "Medicinska škola", "Obrtnička škola",
  "Glazbena škola", "Strojarska tehnička škola", "Prehrambeno-tehnološka škola", "Škola za primijenjenu umjetnost",
];

const COMPANY_WORDS: readonly string[] = ["Komunalac", "Vodovod", "Čistoća", "Parkovi", "Toplinarstvo", "Tržnica", "Zelenilo", "Plin"];
const LOCAL_PARTS: readonly string[] = ["info", "ured", "tajnistvo", "pisarnica", "kontakt", "uprava", "ravnatelj", "racunovodstvo"];
const FIRST_NAMES: readonly string[] = ["ana", "ivan", "marija", "josip", "sanja", "darko", "petra", "marko", "lucija", "zeljko"];
const LAST_NAMES: readonly string[] = [
  "horvat",
  "kovacevic",
  "babic",
  "maric",
  "juric",
  "novak",
  "kovacic",
  "lozic",
  "vukovic",
  "knezevic",
];
const MAIL_HOSTS: readonly string[] = ["gmail.com", "t-com.hr", "email.t-com.hr", "net.hr", "skole.hr"];

/** A name, the town it belongs to, and the word its web domain is made from. */
interface Naming {
  readonly name: string;
  readonly town: string;
  readonly domain: string;
}

type NameMaker = (random: Random, t: Town, v: Vocabulary) => Naming;

// ---------------------------------------------------------------------------------------------
// A vocabulary that grows with the list, as a national register's does: besides the word lists
// above, half the towns, people, municipalities and kindergartens are made-up words from a space
// that widens with the record's index (about one new word every four records: 250,000 at a
// million), drawn skewed so that some recur often and most rarely, as real names do.

/** Croatian-looking syllables: a word is 2 to 4 of them, one number one word. */
// prettier-ignore
const SYLLABLES: readonly string[] = [
  "bra", "ve", "lo", "ko", "ni", "ca", "sla", "vo", "gra", "di", "ja", "nov", "še", "ži", "mi", "ro",
  "da", "bre", "zo", "vi", "ka", "pa", "li", "še", "tu", "ra", "ho", "ču", "đa", "ćo", "sto", "je",
  "kra", "ple", "ti", "no", "mo", "ba", "dra", "ze",
];

/** The made-up word numbered `k` (distinct numbers, distinct words), capitalised. */
function madeUpWord(k: number): string {
  let word = "";
  let n = k;
  do {
    word += SYLLABLES[n % SYLLABLES.length] as string;
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0 || word.length < 4);
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The made-up words a record may draw, by kind: made from (seed, index), like everything of a record. */
interface Vocabulary {
  town(t: Town): Town;
  person(): string;
  municipality(): string;
  kindergarten(): string;
}

function vocabularyOf(seed: number, index: number): Vocabulary {
  const random = mulberry32(mix(seed, index, 0x77));
  // Skewed towards the first words of a space of `size` that grows with the index.
  const draw = (size: number, salt: number): string => madeUpWord(salt + Math.floor(random() ** 2 * (size + index / 4)) * 7);
  const half = (): boolean => random() < 0.5;
  return {
    town: (t) => {
      if (half()) return t;
      const n = draw(200, 1);
      return n.endsWith("a") ? town(n, `${n.slice(0, -1)}e`, `${n.slice(0, -1)}i`) : town(n, `${n}a`, `${n}u`);
    },
    person: () => (half() ? pick(random, PEOPLE) : `${pick(random, PEOPLE).split(" ")[0] ?? ""} ${draw(400, 2)}ića`),
    municipality: () => (half() ? pick(random, MUNICIPALITIES) : draw(300, 3)),
    kindergarten: () => (half() ? pick(random, KINDERGARTENS) : draw(100, 4)),
  };
}

function named(name: string, townName: string, domain: string): Naming {
  return { name, town: townName, domain };
}

// [weight, maker]: weights follow the registry's mix (about 15% primary schools, 11% kindergartens…).
const NAME_MAKERS: readonly (readonly [number, NameMaker])[] = [
  [
    15,
    (r, t, v) => {
      const who = v.person();
      const form = below(r, 4);
      const name =
        form === 0
          ? `Osnovna škola ${t.n}`
          : form === 1
            ? `Osnovna škola ${who}`
            : form === 2
              ? `Osnovna škola ${who} ${t.n}`
              : `II. osnovna škola ${t.n}`;
      return named(name, t.n, `os-${slug(form === 0 || form === 3 ? t.n : who)}.skole.hr`);
    },
  ],
  [
    11,
    (r, t, v) => {
      const kid = v.kindergarten();
      const quoted = below(r, 20) === 0;
      const name = quoted ? `Dječji vrtić "${kid}"` : below(r, 2) === 0 ? `Dječji vrtić ${kid}` : `Dječji vrtić ${kid} ${t.n}`;
      return named(name, t.n, `dv-${slug(kid)}.hr`);
    },
  ],
  [
    5,
    (r, t, v) => {
      const m = v.municipality();
      return below(r, 2) === 0
        ? named(`Turistička zajednica Grada ${t.g}`, t.n, `tz-${slug(t.n)}.hr`)
        : named(`Turistička zajednica mjesta ${m}`, m, `tz-${slug(m)}.hr`);
    },
  ],
  [
    4,
    (r, t) =>
      below(r, 3) === 0
        ? named(`Vatrogasna zajednica ${pick(r, COUNTIES)} županije`, t.n, `vz-${slug(t.n)}.spis.hvz.hr`)
        : named(`Vatrogasna zajednica Grada ${t.g}`, t.n, `vzg-${slug(t.n)}.spis.hvz.hr`),
  ],
  [
    4,
    (_r, _t, v) => {
      const m = v.municipality();
      return named(`Općina ${m}`, m, `opcina-${slug(m)}.hr`);
    },
  ],
  [2, (_r, t) => named(`Grad ${t.n}`, t.n, `${slug(t.n)}.hr`)],
  [
    3,
    (r, t, v) =>
      below(r, 2) === 0
        ? named(`Gradska knjižnica ${t.n}`, t.n, `gk-${slug(t.n)}.hr`)
        : named(`Gradska knjižnica i čitaonica ${v.person()} ${t.n}`, t.n, `knjiznica-${slug(t.n)}.hr`),
  ],
  [5, (r, t, v) => named(`${pick(r, SCHOOL_KINDS)} ${below(r, 3) === 0 ? v.person() + " " : ""}${t.n}`, t.n, `ss-${slug(t.n)}.skole.hr`)],
  [
    4,
    (r, t) =>
      below(r, 2) === 0
        ? named(`Centar za socijalnu skrb ${t.n}`, t.n, `czss-${slug(t.n)}.hr`)
        : named(`Centar za pružanje usluga u zajednici ${t.n}`, t.n, `cpuz-${slug(t.n)}.hr`),
  ],
  [
    3,
    (r, t) =>
      below(r, 2) === 0
        ? named(`Dom za starije osobe ${t.n}`, t.n, `dom-${slug(t.n)}.hr`)
        : named(`Dom zdravlja ${pick(r, COUNTIES)} županije`, t.n, `dz-${slug(t.n)}.hr`),
  ],
  [2, (r, t) => named(`Veterinarska ${below(r, 2) === 0 ? "stanica" : "ambulanta"} ${t.n} d.o.o.`, t.n, `vet-${slug(t.n)}.hr`)],
  [
    2,
    (r, t) => {
      const court = pick(r, [
        "Županijski sud",
        "Općinski sud",
        "Općinsko državno odvjetništvo",
        "Županijsko državno odvjetništvo",
        "Prekršajni sud",
      ]);
      return named(`${court} u ${t.l}`, t.n, `${slug(court.split(" ")[0] ?? "sud")}-${slug(t.n)}.pravosudje.hr`);
    },
  ],
  [1, (r, t) => named(`Zavod za javno zdravstvo ${pick(r, COUNTIES)} županije`, t.n, `zzjz-${slug(t.n)}.hr`)],
  [
    2,
    (r, t) => {
      const word = pick(r, COMPANY_WORDS);
      return named(`${word} ${t.n} d.o.o.`, t.n, `${slug(word)}-${slug(t.n)}.hr`);
    },
  ],
  [1, (_r, t) => named(`Javna vatrogasna postrojba Grada ${t.g}`, t.n, `jvp-${slug(t.n)}.hr`)],
  [1, (_r, t) => named(`Pučko otvoreno učilište ${t.n}`, t.n, `pou-${slug(t.n)}.hr`)],
  [
    1,
    (r, t) =>
      below(r, 2) === 0
        ? named(`Gradski muzej ${t.n}`, t.n, `muzej-${slug(t.n)}.hr`)
        : named(`Muzej grada ${t.g}`, t.n, `mg-${slug(t.n)}.hr`),
  ],
  [
    1,
    (r, t) =>
      below(r, 4) === 0
        ? named(`Sveučilište u ${t.l}`, t.n, `uni${slug(t.n).slice(0, 3)}.hr`)
        : named(`Lučka uprava ${t.n}`, t.n, `lu-${slug(t.n)}.hr`),
  ],
  [
    1,
    (r, t) =>
      named(`Specijalna bolnica "${pick(r, ["Sveti Ivan", "Martin Horvat", "Sveta Katarina"])}" ${t.n}`, t.n, `bolnica-${slug(t.n)}.hr`),
  ],
];
const NAME_WEIGHT = NAME_MAKERS.reduce((sum, [weight]) => sum + weight, 0);

const FOLD: Readonly<Record<string, string>> = { č: "c", ć: "c", đ: "dj", š: "s", ž: "z" };

/** `Slavonski Brod` -> `slavonski-brod`, `Đakovo` -> `djakovo`: the shape of the registry's domains. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[čćđšž]/g, (c) => FOLD[c] ?? c)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

// ---------------------------------------------------------------------------------------------
// Records.

/** The ISO 7064 MOD 11,10 check digit of an OIB's first ten digits. */
export function oibCheckDigit(first10: string): number {
  let a = 10;
  for (let k = 0; k < 10; k++) {
    a = (a + (first10.charCodeAt(k) - 48)) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  const check = 11 - a;
  return check === 10 ? 0 : check;
}

/** Is `oib` 11 digits whose last is the MOD 11,10 check digit of the others? */
export function isValidOib(oib: string): boolean {
  return /^[0-9]{11}$/.test(oib) && oibCheckDigit(oib.slice(0, 10)) === oib.charCodeAt(10) - 48;
}

// Ids: every block of ID_BLOCK records takes ID_BLOCK of ID_SLOTS consecutive ids, skipping a
// random few, so ids ascend with irregular gaps (about 1 in 5 ids missing, as in the registry)
// and any record's id is computed without the records before it.
const ID_BLOCK = 16;
const ID_SLOTS = 20;

/** The id of record `index` (0-based) of the list made from `seed`: ascending, with gaps. */
export function subjectId(seed: number, index: number): number {
  const block = Math.floor(index / ID_BLOCK);
  const random = mulberry32(mix(seed, block, 0x1d));
  const slots = Array.from({ length: ID_SLOTS }, (_, k) => k);
  // A partial Fisher-Yates: the first ID_SLOTS - ID_BLOCK entries are the skipped slots.
  for (let k = 0; k < ID_SLOTS - ID_BLOCK; k++) {
    const other = k + below(random, ID_SLOTS - k);
    [slots[k], slots[other]] = [slots[other] as number, slots[k] as number];
  }
  const skipped = new Set(slots.slice(0, ID_SLOTS - ID_BLOCK));
  let rank = index % ID_BLOCK;
  for (let slot = 0; slot < ID_SLOTS; slot++) {
    if (skipped.has(slot)) continue;
    if (rank === 0) return block * ID_SLOTS + slot + 1;
    rank -= 1;
  }
  throw new Error("unreachable: a block has ID_BLOCK free slots");
}

const FIRST_DAY = Date.UTC(1945, 0, 1);
const DAYS = (Date.UTC(2023, 11, 31) - FIRST_DAY) / 86_400_000 + 1;

function contact(random: Random, domain: string): string {
  const roll = random();
  if (roll < 0.011) return "";
  if (roll < 0.013) return `www.${domain}`;
  const address = (): string => {
    const kind = below(random, 10);
    if (kind < 6) return `${pick(random, LOCAL_PARTS)}@${domain}`;
    if (kind < 9) return `${pick(random, FIRST_NAMES)}.${pick(random, LAST_NAMES)}@${domain}`;
    return `${domain.split(".")[0] ?? "ured"}@${pick(random, MAIL_HOSTS)}`;
  };
  const first = address();
  return roll < 0.021 ? `${first}, ${address()}` : first;
}

/** Record `index` (0-based) of the list made from `seed`: a pure function, valid by every rule of the contract. */
export function makeSubject(seed: number, index: number): Subject {
  const random = mulberry32(mix(seed, index, 0x5b));
  let roll = below(random, NAME_WEIGHT);
  let maker = NAME_MAKERS[0]?.[1] as NameMaker;
  for (const [weight, candidate] of NAME_MAKERS) {
    if (roll < weight) {
      maker = candidate;
      break;
    }
    roll -= weight;
  }
  const vocabulary = vocabularyOf(seed, index);
  const naming = maker(random, vocabulary.town(pick(random, TOWNS)), vocabulary);
  let first10 = "";
  for (let k = 0; k < 10; k++) first10 += String(below(random, 10));
  const date = new Date(FIRST_DAY + below(random, DAYS) * 86_400_000).toISOString().slice(0, 10);
  return {
    id: subjectId(seed, index),
    jedinstvena_oznaka: String(index + 1).padStart(4, "0"),
    naziv_subjekta: naming.name,
    oib: first10 + String(oibCheckDigit(first10)),
    razina: random() < 0.8 ? "lokalna" : "nacionalna",
    datum_postanka: date,
    status_subjekta: random() < 0.95,
    odobreno: random() < 0.88,
    institucija_grad: naming.town,
    institucija_email: contact(random, naming.domain),
  };
}

/** The indexes 0..count-1 in a seeded Fisher-Yates order (a Uint32Array: 4 bytes a record). */
export function shuffledIndexes(seed: number, count: number): Uint32Array {
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const random = mulberry32(mix(seed, count, 0x5f));
  for (let i = count - 1; i > 0; i--) {
    const j = below(random, i + 1);
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  return order;
}

/** The record the `edit` option puts at its index: the same record, renamed. */
export function editSubject(subject: Subject): Subject {
  return { ...subject, naziv_subjekta: `${subject.naziv_subjekta} (izmijenjeno)` };
}

// ---------------------------------------------------------------------------------------------
// Serialisation, in pieces of about CHUNK_CHARS characters.

const CHUNK_CHARS = 1 << 16;

function csvCell(value: string | number | boolean): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The text of the file in pieces, record by record: what `writeSubjects` streams. */
export function* generateText(options: GenerateOptions): Generator<string> {
  const { count, format } = options;
  const seed = seedFromText(options.seed);
  if (format === "json" && count === 0) {
    yield "[]";
    return;
  }
  let piece = format === "json" ? "[\n" : format === "csv" ? `${SUBJECT_FIELDS.join(",")}\n` : "";
  const order = options.shuffle === true ? shuffledIndexes(seed, count) : undefined;
  for (let at = 0; at < count; at++) {
    const index = order === undefined ? at : (order[at] as number);
    const made = makeSubject(seed, index);
    const subject = index === options.edit ? editSubject(made) : made;
    if (format === "json") {
      // JSON.stringify(list, null, 1), record by record: the layout of data/subjekti.json.
      piece += ` ${JSON.stringify(subject, null, 1).replaceAll("\n", "\n ")}${at + 1 < count ? ",\n" : "\n]"}`;
    } else if (format === "ndjson") {
      piece += `${JSON.stringify(subject)}\n`;
    } else {
      piece += `${SUBJECT_FIELDS.map((field) => csvCell(subject[field])).join(",")}\n`;
    }
    if (piece.length >= CHUNK_CHARS) {
      yield piece;
      piece = "";
    }
  }
  if (piece !== "") yield piece;
}

/**
 * The format a file is written in: `format` when given, else the extension of `out` (a `.ndjson`
 * name holds NDJSON, never an array), else JSON (stdout, or a name of another extension).
 */
export function formatFor(out: string, format?: Format): Format {
  if (format !== undefined) return format;
  const extension = /\.([a-z]+)$/i.exec(out)?.[1]?.toLowerCase();
  return FORMATS.find((f) => f === extension) ?? "json";
}

/** Streams the file into `out`, waiting for `drain` whenever the stream's buffer is full. */
export async function writeSubjects(options: GenerateOptions, out: Writable): Promise<void> {
  for (const piece of generateText(options)) {
    if (!out.write(piece)) await once(out, "drain");
  }
}

/** Writes the file at `path` (or stdout for `-`) and resolves once every byte is flushed. */
export async function generateFile(options: GenerateOptions, path: string): Promise<void> {
  if (path === "-") {
    await writeSubjects(options, process.stdout);
    return;
  }
  const out = createWriteStream(path);
  const closed = once(out, "close");
  await writeSubjects(options, out);
  out.end();
  await closed;
}

function count(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  const scale = { "": 1, k: 1e3, m: 1e6 }[(match?.[2] ?? "").toLowerCase() as "" | "k" | "m"];
  const n = match ? Number(match[1]) * scale : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`expected a count such as 5000, 100k or 1m, got "${text}"`);
  return n;
}

function index(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`expected a record index (0-based), got "${text}"`);
  return n;
}

async function main(argv: readonly string[]): Promise<void> {
  const program = new Command("generate-subjects")
    .description("write N seeded, valid subjects (the same seed and count give the same bytes)")
    .requiredOption("--count <n>", "how many subjects (5000, 100k, 1m)", count)
    .option("--seed <text>", "the seed", "1")
    .addOption(new Option("--format <format>", "the file format (default: the --out name's extension, else json)").choices(FORMATS))
    .option("--out <file>", "where to write (- for stdout)", "-")
    .option("--edit <index>", "rename record <index> (0-based), e.g. to time an incremental rebuild", index)
    .option("--shuffle", "write the records in an order shuffled by the seed (4 bytes of memory a record), not in id order", false)
    .showHelpAfterError();
  program.parse(argv);
  const flags = program.opts<{ count: number; seed: string; format?: Format; out: string; edit?: number; shuffle: boolean }>();
  const options: GenerateOptions = {
    count: flags.count,
    seed: flags.seed,
    format: formatFor(flags.out, flags.format),
    shuffle: flags.shuffle,
    ...(flags.edit === undefined ? {} : { edit: flags.edit }),
  };
  await generateFile(options, flags.out);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv);
}
