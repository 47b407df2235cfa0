/**
 * Records as the build's chunks hold them, for the tests of the rows made from their JSON bytes
 * (csv-from-json, xlsx-from-json): a plain record, a chunk of lines, the same record in JSON forms
 * the build does not write, a chunk that is not UTF-8, and lines that are no JSON.
 */
import { renderSubject, type Subject } from "../../src/core/render-page.ts";

export const PLAIN: Subject = {
  id: 7,
  jedinstvena_oznaka: "0007",
  naziv_subjekta: "Općina Drađa",
  oib: "59797235885",
  razina: "lokalna",
  datum_postanka: "1970-08-10",
  status_subjekta: true,
  odobreno: false,
  institucija_grad: "Drađa",
  institucija_email: "zeljko.maric@opcina-dradja.hr",
};

/** Lines as a chunk: each ended by a newline, the last one too unless `lastNewline` is false. */
export const chunkOf = (lines: readonly string[], lastNewline = true): Buffer =>
  Buffer.from(lines.join("\n") + (lastNewline ? "\n" : ""), "utf8");

/** The plain record in JSON forms the build does not write (each must take the parse). */
export function otherForms(): string[] {
  const json = renderSubject(PLAIN);
  return [
    JSON.stringify(Object.fromEntries(Object.entries(PLAIN).reverse())),
    JSON.stringify(PLAIN, null, 1).replaceAll("\n", ""),
    json.replace('"id":7', '"id":7.0'),
    json.replace('"id":7', '"id":7e0'),
    json.replace('"id":7', '"id":-7'),
    json.replace('"id":7', '"id":0'),
    json.replace('"id":7', '"id":1234567890123456789'),
    json.replace('"id":7', '"id":"7"'),
    json.replace('"status_subjekta":true', '"status_subjekta":"true"'),
    json.replace('"odobreno":false', '"odobreno":null'),
    json.replace('"razina":"lokalna"', '"razina":"lok\\u0061lna"'),
    json.replace('"razina":"lokalna"', '"razina":"lok\u2028alna"'),
    json.replace('"institucija_email":"zeljko.maric@opcina-dradja.hr"', '"institucija_email":""'),
    `${json}\r`,
    ` ${json}`,
    json.replace("}", ',"extra":1}'),
    json.replace(',"institucija_email":"zeljko.maric@opcina-dradja.hr"', ""),
  ];
}

/** The plain record with a lone continuation byte before "Op": a chunk that is not UTF-8. */
export function notUtf8(): Buffer {
  const json = Buffer.from(renderSubject(PLAIN), "utf8");
  const at = json.indexOf("Op");
  return Buffer.concat([json.subarray(0, at), Buffer.from([0x80]), json.subarray(at), Buffer.from("\n")]);
}

/** Lines that are no JSON (parsing each throws a SyntaxError). */
export function notJson(): string[] {
  const json = renderSubject(PLAIN);
  return ["{", json.replace("Op", "O\tp"), json.replace('"id":7', '"id":07'), json.replace("}", "")];
}
