/** Escapes LIKE's wildcards so a user's text matches only itself (the default escape character is `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
