import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";

import { startConsoleServer, stopProcess, waitForUrl } from "../tooling/processes";
import { fillSignIn } from "./support/auth";
import { manage, member, openDialog } from "./support/team";

/** The last enabled admin cannot be demoted or disabled (lib/auth/last-admin.ts), on a console of its own. */

// Several browsers and many round trips per test.
test.describe.configure({ timeout: 120_000 });

test.describe("the last enabled admin", () => {
  /** A console of its own on a fresh database whose only user is the bootstrap admin (the shared one has several). */
  let lone: ReturnType<typeof startConsoleServer> | undefined;
  let loneUrl = "";
  let dataDir = "";
  const bootstrap = { email: "only-admin@e2e.test", password: "only-admin-password", name: "Administrator" };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    loneUrl = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-e2e-lone-"));
    lone = startConsoleServer("lone console", port, {
      ...process.env,
      NODE_ENV: "production",
      NEXTAUTH_URL: loneUrl,
      // The browser connects straight to this console, through no proxy (lib/env.ts asks for the choice).
      CONSOLE_TRUSTED_PROXY_HOPS: "0",
      NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64"),
      CONSOLE_ENCRYPTION_KEY: crypto.randomBytes(32).toString("base64"),
      CONSOLE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      CONSOLE_BOOTSTRAP_ADMIN_EMAIL: bootstrap.email,
      CONSOLE_BOOTSTRAP_ADMIN_PASSWORD: bootstrap.password,
    });
    await waitForUrl(`${loneUrl}/api/health`, 90_000, lone);
  });
  test.afterAll(async () => {
    await stopProcess(lone);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("cannot be demoted, not even by themselves; a disabled admin does not count", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: loneUrl });
    const page = await context.newPage();
    await fillSignIn(page, bootstrap);
    await expect(page.getByTestId("current-user")).toHaveText(bootstrap.name);
    const refusal =
      "Administrator is the last enabled admin. Make someone else an admin first, so that the console keeps one.";

    let dialog = await manage(page, bootstrap.name);
    await expect(dialog.getByRole("button", { name: "Disable" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Make support" }).click();
    await expect(dialog).toContainText("You lose admin access");
    await dialog.getByRole("button", { name: "Make support" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(refusal);
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await page.reload();
    await expect(member(page, bootstrap.name)).toContainText("admin");

    // A second admin who is then disabled leaves the first the last enabled one.
    dialog = await openDialog(page, "Add a user");
    await dialog.getByLabel("Email").fill("backup-admin@e2e.test");
    await dialog.getByLabel("Name").fill("Bea Backup");
    await dialog.getByLabel("Role").selectOption("admin");
    await dialog.getByRole("button", { name: "Add user" }).click();
    await dialog.getByRole("button", { name: "Done" }).click();
    dialog = await manage(page, "Bea Backup");
    await dialog.getByRole("button", { name: "Disable" }).click();
    await dialog.getByRole("button", { name: "Disable" }).click();
    await expect(member(page, "Bea Backup")).toContainText("Disabled");

    dialog = await manage(page, bootstrap.name);
    await dialog.getByRole("button", { name: "Make support" }).click();
    await dialog.getByRole("button", { name: "Make support" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(refusal);
    await context.close();
  });
});
