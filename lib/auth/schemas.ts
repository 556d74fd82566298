import { z } from "zod";

import { displayNameSchema } from "@/lib/display-name";

import { roles } from "./roles";

/** One schema per input, shared by the sign-in form and the server. */
export const signInSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter your email address.")
    .max(320, "That email address is too long.")
    .email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password.").max(1024, "That password is too long."),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const newPasswordSchema = z
  .string()
  .min(12, "Passwords have at least 12 characters.")
  .max(1024, "Passwords have at most 1024 characters.");

export const newUserSchema = z.object({
  email: z.string().trim().max(320).email("Enter a valid email address."),
  name: displayNameSchema({ required: "Enter a name.", max: 200 }),
  role: z.enum(roles),
  password: newPasswordSchema,
});
export type NewUserInput = z.infer<typeof newUserSchema>;
