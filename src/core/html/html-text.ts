/**
 * Values as text, never markup: every name, town and contact a page shows goes through these.
 * `<bdi>` isolates a value's direction, so a bidi override inside a name (U+202E) reorders only
 * that name, never the label or the link beside it.
 */

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside HTML elements and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** A value shown as the characters it is, its direction isolated from the text around it. */
export function valueText(text: string): string {
  return `<bdi>${escapeHtml(text)}</bdi>`;
}

/** Characters a JSON text may hold that must not reach a `<script>` block as they are (HTML's script data states, JavaScript's line terminators). */
const SCRIPT_ESCAPES: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** JSON inside a `<script>` data block: no value in it can close the block or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/[<>&\u2028\u2029]/g, (char) => SCRIPT_ESCAPES[char] ?? char);
}

/** A date `YYYY-MM-DD` as Croatian writes it (`12. 7. 2012.`); the text as it is when it is no such date. */
export function croatianDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match === null) return day;
  return `${Number(match[3])}. ${Number(match[2])}. ${match[1]}.`;
}

/** Text safe inside an XML element (the sitemap): the five predefined entities, and no character XML 1.0 forbids. */
export function escapeXml(text: string): string {
  return escapeHtml(text).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");
}
