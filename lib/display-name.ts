import { z } from "zod";

/**
 * Names people give things in the console (a connection, a team member; later a destination). Client-safe:
 * the forms validate with the same schema as the server.
 */

/** Every C0 and C1 control character and DEL (Unicode category Cc): line feed, carriage return, tab, escape, NUL. */
const CONTROL_CHARACTER = /\p{Cc}/u;

export const controlCharacterMessage = "Names cannot contain line breaks, tabs or other control characters.";

/**
 * A display name: trimmed, required, at most `max` characters and on one line. A name is written into plain
 * text in many places (a log or audit line, the comment of a copied curl command, a CSV cell, a terminal),
 * where a line break or an escape sequence would end the line early or forge the next one.
 */
export function displayNameSchema({ required, max }: { required: string; max: number }) {
  return z
    .string()
    .trim()
    .min(1, required)
    .max(max, `Names have at most ${max} characters.`)
    .refine((name) => !CONTROL_CHARACTER.test(name), controlCharacterMessage);
}

/** A name for one line of text, whenever it was stored: each control character becomes U+FFFD (�). */
export function oneLineName(name: string): string {
  return name.replace(new RegExp(CONTROL_CHARACTER, "gu"), "\uFFFD");
}
