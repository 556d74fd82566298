import { z } from "zod";

/** Client-safe: the lookup form's user id, checked again on the server. */
export const userIdSchema = z
  .string()
  .trim()
  .min(1, "Enter a user id.")
  .max(255, "User ids have at most 255 characters.");

const firstValue = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const optionalText = z.preprocess(firstValue, z.string().optional().catch(undefined));

/** The users page's query, never a crash: the raw id (for the form), whether a lookup was asked, and where. */
export const lookupRequestSchema = z
  .object({ userId: optionalText, connection: optionalText, lookup: optionalText })
  .transform(({ userId, connection, lookup }) => ({
    rawUserId: userId ?? "",
    userId: userId === undefined ? null : userIdSchema.safeParse(userId),
    askedIn: connection ?? null,
    asked: lookup === "1" || connection !== undefined,
  }));
export type LookupRequest = z.infer<typeof lookupRequestSchema>;
