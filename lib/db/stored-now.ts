import { sql } from "drizzle-orm";

/**
 * now() as a millisecond column (timestamptz(3)) holds it. Writing now() into such a column rounds it, up by as
 * much as 0.5 ms, so a row made due "now" may not yet be due by the next statement's now(). Compare such columns
 * with this instead: rounding keeps order, so what was due stays due.
 */
export const storedNow = sql`now()::timestamptz(3)`;
