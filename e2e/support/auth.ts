import { expect, type Page } from "@playwright/test";
import { e2eUsers } from "./env";

export type E2eUser = (typeof e2eUsers)[keyof typeof e2eUsers];

export async function fillSignIn(page: Page, user: { email: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs in through the form and waits for the shell. */
export async function signIn(page: Page, user: E2eUser = e2eUsers.admin) {
  await fillSignIn(page, user);
  await expect(page.getByTestId("current-user")).toHaveText(user.name);
}
