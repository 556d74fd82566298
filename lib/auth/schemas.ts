import { z } from "zod";

import { displayNameSchema } from "@/lib/display-name";

import { roles } from "./roles";

/** One schema per input, shared by the sign-in form and the server. */
export const signInSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter your email address.")
    .max(320, "An email address has at most 320 characters.")
    .email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password.").max(1024, "A password has at most 1024 characters."),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const newPasswordSchema = z
  .string()
  .min(12, "Passwords have at least 12 characters.")
  .max(1024, "Passwords have at most 1024 characters.");

export const newUserSchema = z.object({
  email: z
    .string()
    .trim()
    .max(320, "An email address has at most 320 characters.")
    .email("Enter a valid email address."),
  name: displayNameSchema({ required: "Enter a name.", max: 200 }),
  role: z.enum(roles),
  password: newPasswordSchema,
});
export type NewUserInput = z.infer<typeof newUserSchema>;
