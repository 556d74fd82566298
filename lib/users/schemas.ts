import { z } from "zod";

/** Client-safe: the lookup form's user id, checked again on the server. */
export const userIdSchema = z.string().trim().min(1, "Enter a user id.").max(255, "User ids have at most 255 characters.");
