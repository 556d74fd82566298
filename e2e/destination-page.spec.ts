import http from "node:http";
import type { AddressInfo } from "node:net";

import { expect, test, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";

import { signIn } from "./support/auth";
import { addDestination, removeDestination } from "./support/destinations";
import { e2eUsers } from "./support/env";

// A destination's own page (/destinations/[id]): its attempts, its test event, its secret shown and rotated,
// its edit, and support's read-only view. The receiver is a server of this test on 127.0.0.1, which the e2e
// console allows over http.

type Received = { headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
let answer = 200;
let server: http.Server;
let receiverUrl: string;

test.beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
test.beforeEach(() => {
  received.length = 0;
  answer = 200;
});

/** Adds a Standard Webhooks destination on the Destinations page, opens its own page and answers its secret. */
async function openNewDestination(page: Page, name: string, path = "/hook"): Promise<string> {
  // The retry of a failed test must not meet the first try's destination (names are unique in a connection).
  await removeLeftover(page, name);
  await addDestination(page, name, `${receiverUrl}${path}`, /Standard Webhooks/);
  const secret = (await page.getByTestId("destination-secret").textContent())!;
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByTestId(`destination-${name}`).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  return secret;
}

async function removeLeftover(page: Page, name: string) {
  await signIn(page, e2eUsers.admin, "/destinations");
  if ((await page.getByTestId(`destination-${name}`).count()) > 0) await removeDestination(page, name);
}

async function sendTestEvent(page: Page) {
  const before = received.length;
  await page.getByRole("button", { name: "Send a test event" }).click();
  await expect.poll(() => received.length).toBe(before + 1);
  return received.at(-1)!;
}

const verifies = (secret: string, message: Received) => {
  try {
    new Webhook(secret).verify(message.body, message.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

async function removeFromList(page: Page, name: string) {
  await page.goto("/destinations");
  await removeDestination(page, name);
}

test("a destination's test event arrives at its receiver, verifies with its secret and is listed among its attempts", async ({
  page,
}) => {
  const secret = await openNewDestination(page, "Test target");
  const message = await sendTestEvent(page);
  expect(verifies(secret, message)).toBe(true);
  const event = JSON.parse(message.body) as { id: string; data: { userId: string } };
  expect(event.id).toMatch(/^console-test-/);
  await expect(page.getByText(/Test target took the test event: answered 200 in \d+ ms\./)).toBeVisible();
  const row = page.getByTestId("attempt-row").first();
  await expect(row).toContainText("Delivered");
  await expect(row).toContainText("Test event");
  await removeFromList(page, "Test target");
});

test("a destination's page lists its attempts newest first and filters them by outcome", async ({ page }) => {
  await openNewDestination(page, "Listed");
  await sendTestEvent(page);
  answer = 503;
  await sendTestEvent(page);
  await expect(page.getByText(/Listed did not take the test event: answered 503/)).toBeVisible();
  const rows = page.getByTestId("attempt-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Failed");
  await expect(rows.nth(0)).toContainText("503");
  await expect(rows.nth(1)).toContainText("Delivered");

  const filters = page.getByRole("navigation", { name: "Attempts by outcome" });
  await filters.getByRole("link", { name: "Failed" }).click();
  await expect(page).toHaveURL(/outcome=failed/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("503");
  await filters.getByRole("link", { name: "Delivered" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("200");
  await expect(page.getByTestId("delivery-24h-summary")).toHaveText(
    /50 % delivered of 2 attempts; p95 latency \d+ ms\./,
  );
  await removeFromList(page, "Listed");
});

test("a rotated secret's previous value still signs beside the new one for the period picked, and not after a rotation without one", async ({
  page,
}) => {
  const first = await openNewDestination(page, "Rotated");
  await page.getByRole("button", { name: "Show signing secret" }).click();
  await expect(page.getByTestId("destination-revealed-secret")).toHaveText(first);
  await page.getByRole("button", { name: "Done" }).click();

  await page.getByRole("button", { name: "Rotate secret" }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate the secret of Rotated" });
  await dialog.getByLabel("Keep signing with the previous secret for").selectOption({ label: "1 hour" });
  await dialog.getByRole("button", { name: "Rotate secret" }).click();
  const second = (await page.getByTestId("destination-secret").textContent())!;
  await expect(page.getByText("The previous secret still signs beside it for 1 hour")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  expect(second).not.toBe(first);
  const during = await sendTestEvent(page);
  expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  expect(verifies(first, during)).toBe(true);
  expect(verifies(second, during)).toBe(true);

  await page.getByRole("button", { name: "Rotate secret" }).click();
  await dialog
    .getByLabel("Keep signing with the previous secret for")
    .selectOption({ label: "Not at all: it stops now" });
  await dialog.getByRole("button", { name: "Rotate secret" }).click();
  const third = (await page.getByTestId("destination-secret").textContent())!;
  await page.getByRole("button", { name: "Done" }).click();
  const after = await sendTestEvent(page);
  expect(verifies(third, after)).toBe(true);
  expect(verifies(second, after)).toBe(false);
  expect(verifies(first, after)).toBe(false);
  await removeFromList(page, "Rotated");
});

test("an admin edits a destination's URL, event types and cap on its page", async ({ page }) => {
  await openNewDestination(page, "Edited");
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: "Edit Edited" });
  await form.getByLabel("URL").fill("http://hooks.example.test/in");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("A destination URL starts with https://.")).toBeVisible();
  await form.getByLabel("URL").fill(`${receiverUrl}/moved`);
  await form.getByLabel("authenticator.expired").check();
  await form.getByLabel("Maximum deliveries per second").fill("7");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText("7 per second")).toBeVisible();
  await expect(page.getByText(`${receiverUrl}/moved`)).toBeVisible();
  await sendTestEvent(page);
  await removeFromList(page, "Edited");
});

test("support sees a destination's page read-only, with its URL's origin only", async ({ page, browser }) => {
  await openNewDestination(page, "Read only", "/hook/secret-path?token=abc123");
  const path = new URL(page.url()).pathname;
  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  await signIn(support, e2eUsers.support, path);
  await expect(support.getByRole("heading", { name: "Read only", level: 1 })).toBeVisible();
  await expect(support.getByText(receiverUrl, { exact: true })).toBeVisible();
  const html = await support.content();
  expect(html).not.toContain("secret-path");
  expect(html).not.toContain("abc123");
  for (const name of ["Send a test event", "Edit", "Show signing secret", "Rotate secret", "Turn off", "Remove"])
    await expect(support.getByRole("button", { name })).toHaveCount(0);
  await supportContext.close();
  await removeFromList(page, "Read only");
});
