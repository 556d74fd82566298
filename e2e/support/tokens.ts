import type { Page } from "@playwright/test";

/** Makes a token on the tokens page as whoever `page` is signed in as, copies it, and answers its secret. */
export async function createToken(page: Page, name: string, role: "admin" | "support"): Promise<string> {
  await page.goto("/tokens");
  await page.getByRole("button", { name: "Create a token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API token" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Role").selectOption(role);
  await dialog.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByRole("dialog", { name: `Secret of ${name}` });
  const secret = (await shown.getByTestId("api-token-secret").textContent()) ?? "";
  await shown.getByRole("button", { name: "Done" }).click();
  return secret;
}

/** The id of a connection, from its link on the Connections page (the page signed in). */
export async function connectionIdOf(page: Page, name: string): Promise<string> {
  await page.goto("/connections");
  const href = await page.locator('a[href^="/connections/"]', { hasText: name }).first().getAttribute("href");
  return href!.split("/").pop()!.split(/[?#]/)[0]!;
}
