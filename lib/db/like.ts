import { sql, type SQL } from "drizzle-orm";

/** Escapes LIKE's wildcards so a user's text matches only itself (the default escape character is `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * True where `text` holds any of `values` as written (no wildcards), in one parameter however many there
 * are; an empty value is left out, as every text would hold it. False when none is left.
 */
export function containsAny(text: SQL, values: readonly string[]): SQL {
  const wanted = values.filter((value) => value.length > 0);
  if (wanted.length === 0) return sql`false`;
  return sql`exists (select 1 from json_array_elements_text(${JSON.stringify(wanted)}::json) as wanted(value) where strpos(${text}, wanted.value) > 0)`;
}
