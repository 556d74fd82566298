/** JSON text with exact control over the bytes: Raw pieces are spliced in verbatim. */
import type { Rng } from "./rng";

export class Raw {
  constructor(readonly piece: string | Buffer) {}
}
export const raw = (piece: string | Buffer) => new Raw(piece);

export type Style = {
  indent?: string | number;
  lead?: string;
  trail?: string;
  escapes?: ("at" | "plus" | "slash" | "nonascii")[];
};

export function serialize(value: unknown, style: Style = {}): Buffer {
  const pieces: (string | Buffer)[] = [];
  let text = JSON.stringify(
    value,
    (_key, v: unknown) => (v instanceof Raw ? `~~RAW${pieces.push(v.piece) - 1}~~` : v),
    style.indent,
  );
  // Every escape below only touches characters that can occur inside strings alone.
  for (const escape of style.escapes ?? []) {
    if (escape === "at") text = text.replace(/@/g, "\\u0040");
    if (escape === "plus") text = text.replace(/\+/g, "\\u002B");
    if (escape === "slash") text = text.replace(/\//g, "\\/");
    if (escape === "nonascii")
      text = text.replace(/[^\x00-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
  text = (style.lead ?? "") + text + (style.trail ?? "");
  const out: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(/"~~RAW(\d+)~~"/g)) {
    out.push(Buffer.from(text.slice(last, match.index), "utf8"));
    const piece = pieces[Number(match[1])]!;
    out.push(typeof piece === "string" ? Buffer.from(piece, "utf8") : piece);
    last = match.index! + match[0].length;
  }
  out.push(Buffer.from(text.slice(last), "utf8"));
  return Buffer.concat(out);
}

/** Positions of bytes outside JSON strings (structure), and inside strings (content). */
export function jsonByteClasses(body: Buffer): { outside: number[]; inside: number[] } {
  const outside: number[] = [];
  const inside: number[] = [];
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (inString) {
      if (b === 0x5c) {
        i++; // skip the escaped byte
        continue;
      }
      if (b === 0x22) inString = false;
      else if (b < 0x80) inside.push(i);
    } else if (b === 0x22) inString = true;
    else if (b > 0x20) outside.push(i);
  }
  return { outside, inside };
}

/** Flips the high bit of one byte: inside a string it makes invalid UTF-8, outside it breaks the JSON. */
export function byteFlip(body: Buffer, r: Rng): Buffer {
  const out = Buffer.from(body);
  const { outside, inside } = jsonByteClasses(body);
  if (r.chance(0.5) && outside.length) {
    out[r.pick(outside)] = 0x23; // '#' where JSON structure is
  } else {
    const at = r.pick(inside.length ? inside : outside);
    out[at] = out[at]! ^ 0x80;
  }
  return out;
}
