import { expect, type Page } from "@playwright/test";

import type { OidcUser } from "../../tooling/oidc-users";
import { e2eEnv, e2eUsers } from "./env";

/** The people of the e2e OpenID Connect provider, and the groups the e2e console maps to roles. */
export const e2eOidc = {
  clientId: "tenant-console-e2e",
  providerName: "Example ID",
  adminGroup: "console-admins",
  supportGroup: "console-support",
  allowedDomain: "e2e.test",
} as const;

const user = (login: string, name: string, groups: string[], more: Partial<OidcUser> = {}): OidcUser => ({
  login,
  name,
  email: `${login}@e2e.test`,
  emailVerified: true,
  groups,
  ...more,
});

export const e2eOidcUsers = {
  admin: user("sso-admin", "Ines Admin", [e2eOidc.adminGroup, "staff"]),
  support: user("sso-support", "Sol Support", [e2eOidc.supportGroup]),
  noGroup: user("sso-nogroup", "Noa Nogroup", ["staff"]),
  unverified: user("sso-unverified", "Una Unverified", [e2eOidc.adminGroup], { emailVerified: false }),
  outsider: user("sso-outsider", "Otto Outsider", [e2eOidc.adminGroup], { email: "otto@elsewhere.test" }),
  /** Seeded as a console user who signed in through single sign-on before and was then disabled. */
  leaver: user("sso-leaver", "Lee Leaver", [e2eOidc.supportGroup]),
  /** Someone whose provider account has the email of the console's password admin: never linked to it by itself. */
  impostor: user("sso-impostor", "Ivo Impostor", [e2eOidc.supportGroup], { email: e2eUsers.admin.email }),
  /** Seeded as a console user with a password (e2eLinkerLocalAccount), who links single sign-on to it. */
  linker: user("sso-linker", "Lin Linker", [e2eOidc.supportGroup]),
} satisfies Record<string, OidcUser>;

/** The console's own account of e2eOidcUsers.linker before the link: same email, another name, a password. */
export const e2eLinkerLocalAccount = { name: "Lin Local", role: "support", password: "linker-password-e2e" } as const;

/** Starts single sign-on from the console's sign-in page and signs in at the provider's login form. */
export async function startSsoSignIn(page: Page, person: OidcUser, path = "/sign-in") {
  await page.goto(path);
  await signInAtProvider(page, person);
}

/** From a console page with the single sign-on button: the button, then the provider's login form. */
export async function signInAtProvider(page: Page, person: OidcUser) {
  await page.getByRole("button", { name: `Sign in with ${e2eOidc.providerName}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2eEnv.oidcUrl}/interaction/`));
  await page.locator('input[name="login"]').fill(person.login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}
