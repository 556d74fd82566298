import { z } from "zod";

import { displayNameSchema } from "@/lib/display-name";
import { regions } from "@/lib/service/regions";

/** One schema per input, shared by the forms (zodResolver) and the server actions. Client-safe. */
const key = z
  .string()
  .trim()
  .max(512, "A key has at most 512 characters.")
  .refine((v) => v === "" || /^[\x21-\x7e]{8,}$/.test(v), "A key is at least 8 printable characters with no spaces.");

const fields = {
  name: displayNameSchema({ required: "Give the connection a name.", max: 100 }),
  region: z.enum(regions, "Choose a region."),
  /** Write-only: empty on edit keeps the stored key. */
  managementKey: key,
  serverKey: key,
  serverSecondaryKey: key,
  /** Set when the admin chose to save although the region could not be reached. */
  saveUnverified: z.boolean(),
  /**
   * Set when the admin, told that another connection already holds this management key in this region
   * (the same tenant), chose to save a second connection to it anyway.
   */
  allowSameKey: z.boolean().optional(),
};

export const createConnectionSchema = z.object(fields).refine((v) => v.managementKey !== "", {
  path: ["managementKey"],
  message: "Enter the tenant's management API secret key.",
});
export type CreateConnectionInput = z.infer<typeof createConnectionSchema>;

export const updateConnectionSchema = z.object({ id: z.uuid(), ...fields, removeServerSecondaryKey: z.boolean() });
export type UpdateConnectionInput = z.infer<typeof updateConnectionSchema>;

export const deleteConnectionSchema = z.object({ id: z.uuid(), confirmName: z.string() });
export type DeleteConnectionInput = z.infer<typeof deleteConnectionSchema>;

/** A connection's id in a URL or an action's input. */
export const connectionIdSchema = z.uuid();

export const selectConnectionSchema = z.object({ id: connectionIdSchema });
