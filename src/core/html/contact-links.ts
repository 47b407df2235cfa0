/**
 * The contact value as links: the spec's `institucija_email` is usually one e-mail address, may
 * hold several separated by a comma and a space, and may be a web address instead. Each part that
 * is plainly an address becomes a `mailto:` or web link; anything else stays text.
 */
import { escapeHtml, valueText } from "./html-text.ts";

/** One part of a contact value. */
export type ContactPart =
  | { readonly kind: "email"; readonly address: string }
  | { readonly kind: "web"; readonly url: string; readonly text: string }
  | { readonly kind: "text"; readonly text: string };

// One address, no spaces, quotes or angle brackets: what a mailto: link can carry as it is.
// The domain's labels hold no dot, so each character has one place to go: linear time.
const EMAIL = /^[^\s@<>"'`,;()]+@[^\s@<>"'`,;().]+(?:\.[^\s@<>"'`,;().]+)+$/;
// A web address: http(s):// or www., no spaces, quotes or angle brackets.
const WEB = /^(?:https?:\/\/|www\.)[^\s<>"'`]+$/i;

/** The contact's parts: split at ", " as the spec allows, each read as an address or left as text. */
export function contactParts(contact: string): ContactPart[] {
  return contact
    .split(", ")
    .filter((part) => part.trim() !== "")
    .map((part): ContactPart => {
      const trimmed = part.trim();
      if (EMAIL.test(trimmed)) return { kind: "email", address: trimmed };
      if (WEB.test(trimmed)) return { kind: "web", url: /^www\./i.test(trimmed) ? `https://${trimmed}` : trimmed, text: trimmed };
      return { kind: "text", text: part };
    });
}

/** The contact as HTML: links where the parts are addresses, the text as it is otherwise. */
export function contactHtml(contact: string): string {
  const parts = contactParts(contact);
  if (parts.length === 0) return valueText(contact);
  return parts
    .map((part) => {
      switch (part.kind) {
        case "email":
          return `<a href="mailto:${escapeHtml(part.address)}">${valueText(part.address)}</a>`;
        case "web":
          return `<a href="${escapeHtml(part.url)}" rel="nofollow">${valueText(part.text)}</a>`;
        case "text":
          return valueText(part.text);
        default: {
          const unknown: never = part;
          return String(unknown);
        }
      }
    })
    .join(", ");
}
