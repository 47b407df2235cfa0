/**
 * Values printed for a person, made safe for a terminal: a data value or a checked server's answer
 * may hold control characters (an escape sequence rewrites the screen, a carriage return hides
 * what came before it) or bidi controls (U+202E shows text reversed, so a line can claim what it
 * does not say). Each is written as its JSON escape, `\u202e`, which keeps a JSON line valid and
 * equal.
 */

/** C0 and C1 controls, DEL, the bidi controls (ALM, LRM, RLM, the embeddings and overrides, the isolates) and the line and paragraph separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** `text` with each control or bidi character as `\uXXXX`. */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Lines for a terminal: each escaped on its own, then ended by a newline. */
export function terminalLines(lines: readonly string[]): string {
  return lines.map((line) => `${escapeTerminal(line)}\n`).join("");
}
