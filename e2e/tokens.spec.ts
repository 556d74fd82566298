import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";

/**
 * An admin makes an API token on its page, sees the secret once, a script uses it over HTTP against the
 * running build (never for a page), and once revoked it is refused.
 */

test("an admin creates a token, it reads /api but no page, and once revoked it gets 401", async ({ page, request }) => {
  const name = `e2e script ${crypto.randomBytes(3).toString("hex")}`;
  await signIn(page, e2eUsers.admin, "/tokens");
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();

  await page.getByRole("button", { name: "Create a token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API token" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Role").selectOption("support");
  const actionCall = page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
  await dialog.getByRole("button", { name: "Create token" }).click();
  const created = await actionCall;
  const shown = page.getByRole("dialog", { name: `Secret of ${name}` });
  const secret = (await shown.getByTestId("api-token-secret").textContent()) ?? "";
  expect(secret).toMatch(/^tcapi_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();
  const row = page.getByTestId("api-token").filter({ hasText: name }).filter({ visible: true });
  await expect(row).toContainText("Never");
  await page.reload();
  expect(await page.content()).not.toContain(secret);

  const bearer = { authorization: `Bearer ${secret}` };
  const events = await request.get("/api/webhook-events", { headers: bearer });
  expect(events.status()).toBe(200);
  expect(await events.json()).toHaveProperty("events");
  // Sessions only for pages: the token alone is sent to sign in.
  const pageAnswer = await request.get("/webhooks", { headers: bearer, maxRedirects: 0 });
  expect(pageAnswer.status()).toBe(307);
  expect(pageAnswer.headers().location).toContain("/sign-in");
  // Nor a server action: the page's own call to create a token, sent again with the token instead of the session.
  const actionAnswer = await request.post("/tokens", {
    headers: { ...bearer, "next-action": created.headers()["next-action"]!, "content-type": created.headers()["content-type"]!, accept: "text/x-component", origin: new URL(page.url()).origin },
    data: created.postData() ?? "",
    maxRedirects: 0,
  });
  expect(actionAnswer.status()).toBe(307);
  expect(actionAnswer.headers().location).toContain("/sign-in");

  await page.reload();
  // Created, and now last used: two times in the row.
  await expect(row.locator("time")).toHaveCount(2);
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Revoke ${name}?` });
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(row).toContainText("Revoked");
  const refused = await request.get("/api/webhook-events", { headers: bearer });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "unauthorized", errorDescription: "This API token was revoked." });
});
