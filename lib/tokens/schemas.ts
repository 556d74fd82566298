import { z } from "zod";

import { apiTokenScopes } from "@/lib/auth/api-token-format";
import { roles } from "@/lib/auth/roles";

import { TOKEN_EXPIRY_MAX_DAYS, TOKEN_NAME_MAX } from "./constants";

/** Client-safe: the tokens page's form and the CLI parse with these, and the server again. */

const emptyIsNone = (value: unknown) => (value === "" || value === null ? undefined : value);

export const createApiTokenSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Name the token (what uses it).")
    .max(TOKEN_NAME_MAX, `At most ${TOKEN_NAME_MAX} characters.`),
  role: z.enum(roles, "Choose admin or support."),
  scopes: z
    .array(z.enum(apiTokenScopes, "A scope is api or metrics."))
    .min(1, "Choose at least one scope.")
    .transform((scopes) => [...new Set(scopes)]),
  expiresInDays: z.preprocess(
    emptyIsNone,
    z.coerce
      .number("Days: a whole number.")
      .int("Days: a whole number.")
      .min(1, "At least 1 day, or leave it empty for no expiry.")
      .max(TOKEN_EXPIRY_MAX_DAYS, `At most ${TOKEN_EXPIRY_MAX_DAYS} days, or leave it empty for no expiry.`)
      .optional(),
  ),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;

export const revokeApiTokenSchema = z.object({ id: z.uuid() });
export type RevokeApiTokenInput = z.infer<typeof revokeApiTokenSchema>;
