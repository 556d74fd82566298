import { z } from "zod";

import { roles } from "@/lib/auth/roles";
import { newPasswordSchema } from "@/lib/auth/schemas";
import type { ActionFailure } from "@/lib/call-action";
import { displayNameSchema } from "@/lib/display-name";

import { PASSWORD_SETUP_TOKEN_SHAPE } from "./types";

/** One schema per input of the team page and the set-password page, shared by the forms and the server. Client-safe. */

export const addTeamMemberSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter an email address.")
    .max(320, "An email address has at most 320 characters.")
    .email("Enter a valid email address."),
  name: displayNameSchema({ required: "Enter a name.", max: 200 }),
  role: z.enum(roles, "Choose a role."),
});
export type AddTeamMemberInput = z.infer<typeof addTeamMemberSchema>;

/** The console user an action is about. */
export const teamMemberSchema = z.object({ userId: z.uuid("That user does not exist.") });
export type TeamMemberInput = z.infer<typeof teamMemberSchema>;

export const changeRoleSchema = teamMemberSchema.extend({ role: z.enum(roles, "Choose a role.") });
export type ChangeRoleInput = z.infer<typeof changeRoleSchema>;

export const setDisabledSchema = teamMemberSchema.extend({ disabled: z.boolean() });
export type SetDisabledInput = z.infer<typeof setDisabledSchema>;

/** A set-password link's token (PASSWORD_SETUP_TOKEN_SHAPE). */
export const passwordSetupTokenSchema = z.string().regex(PASSWORD_SETUP_TOKEN_SHAPE, "This link is incomplete.");

const passwordPair = {
  password: newPasswordSchema,
  confirmation: z.string().max(1024, "Passwords have at most 1024 characters."),
};
const samePasswords = (v: { password: string; confirmation: string }) => v.password === v.confirmation;
const notTheSame = { path: ["confirmation"], message: "The two passwords are not the same." };

/** The set-password form's fields; the page adds the link's token. */
export const newPasswordFormSchema = z.object(passwordPair).refine(samePasswords, notTheSame);
export type NewPasswordFormInput = z.infer<typeof newPasswordFormSchema>;

export const setPasswordSchema = z
  .object({ token: passwordSetupTokenSchema, ...passwordPair })
  .refine(samePasswords, notTheSame);
export type SetPasswordInput = z.infer<typeof setPasswordSchema>;

/** An input that does not parse, as an action's answer: its first problem, in words. */
export function invalid(error: z.ZodError): ActionFailure {
  return { ok: false, error: error.issues[0]?.message ?? "Check the form." };
}
