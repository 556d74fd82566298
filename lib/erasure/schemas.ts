import { z } from "zod";

import { userIdSchema } from "@/lib/users/schemas";

/**
 * The users page's user id, less what no stored event can hold (the receiver refuses a NUL and an unpaired
 * surrogate, and the database could not be asked about them): such an id has no data to erase.
 */
const erasableUserId = userIdSchema.refine(
  (id) => !/[\u0000\p{Cs}]/u.test(id),
  "User ids hold no NUL character and no unpaired surrogate.",
);

/** Client-safe: whose data, and where (a connection's id; null: every connection). Checked again on the server. */
export const endUserErasureSchema = z.object({
  userId: erasableUserId,
  connectionId: z.uuid({ error: "must be a connection's id (a UUID)" }).nullable(),
});
export type EndUserErasureInput = z.input<typeof endUserErasureSchema>;

/** The Users page's erasure: the same, and the user id typed again to confirm it. */
export const confirmedErasureSchema = endUserErasureSchema.extend({ confirmUserId: z.string() });
export type ConfirmedErasureInput = z.input<typeof confirmedErasureSchema>;

/** DELETE /api/end-users/{userId}: the path's user id, as the Users page takes one. */
export const endUserPathSchema = z.object({ userId: erasableUserId });

/** DELETE /api/end-users/{userId}'s query: one connection's id, or none for every connection's data; nothing else. */
export const endUserErasureQuerySchema = z.strictObject({
  connectionId: endUserErasureSchema.shape.connectionId.unwrap().optional(),
});
