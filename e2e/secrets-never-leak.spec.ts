import { expect, test, type Page } from "@playwright/test";

import { loadSeedFile } from "../emulator/seed";
import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";

const seed = loadSeedFile("emulator/seeds/demo.json");
const keys = seed.tenants.flatMap((t) => [t.managementKey, ...t.serverSecretKeys]);

/**
 * Every form in which a key could travel: plain, URL-encoded, base64 (with/without padding), base64url, and the
 * basic-auth header.
 */
function forms(key: string): string[] {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  return [
    key,
    encodeURIComponent(key),
    b64(key),
    b64(key).replace(/=+$/, ""),
    Buffer.from(key).toString("base64url"),
    b64(`${key}:`),
    b64(`${key}:`).replace(/=+$/, ""),
    // A key embedded at another byte offset encodes differently: the stable middle of its base64.
    b64(`x${key}`).slice(4, -4),
    b64(`xx${key}`).slice(4, -4),
  ];
}
const needles = keys.flatMap((key) => forms(key).map((form) => ({ key: key.slice(-4), form })));

type Haystack = { where: string; text: string }[];

function record(page: Page, haystack: Haystack) {
  page.on("response", async (response) => {
    haystack.push({
      where: `headers ${response.url()}`,
      text: JSON.stringify(await response.allHeaders().catch(() => ({}))),
    });
    const body = await response.body().catch(() => null);
    if (body) haystack.push({ where: `body ${response.url()}`, text: body.toString("latin1") });
  });
}

async function snapshot(page: Page, haystack: Haystack) {
  haystack.push({ where: `DOM ${page.url()}`, text: await page.content() });
  haystack.push({
    where: `storage ${page.url()}`,
    text: await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }),
    ),
  });
  haystack.push({ where: "cookies", text: JSON.stringify(await page.context().cookies()) });
}

async function visitAll(page: Page, haystack: Haystack, paths: string[]) {
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await snapshot(page, haystack);
  }
}

function leaks(haystack: Haystack): string[] {
  const found: string[] = [];
  for (const { where, text } of haystack) {
    for (const needle of needles)
      if (text.includes(needle.form)) found.push(`key …${needle.key} as ${needle.form} in ${where}`);
  }
  return found;
}

test("no management or server key reaches the browser, for admin or support, on any page", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const haystack: Haystack = [];
  record(page, haystack);
  await signIn(page, e2eUsers.admin);

  await page.goto("/connections");
  // The table streams in after the page's load event: wait for its rows' links before reading them.
  const connectionLinks = page.getByRole("table", { name: "Connections" }).getByRole("link");
  await expect(connectionLinks.nth(1)).toBeVisible();
  const detailPaths = await connectionLinks.evaluateAll((links) =>
    links.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
  );
  expect(detailPaths.length).toBeGreaterThanOrEqual(2);
  await visitAll(page, haystack, [
    "/",
    "/connections",
    "/connections/new",
    ...detailPaths,
    "/data-points?id=dp_loyalty_tier",
    "/data-points?id=missing",
    "/email-otp",
    "/audit",
    "/tokens",
    "/webhooks",
    "/users",
  ]);

  // Actions too: save a connection unchanged (key fields empty) and switch connections.
  await page.goto(detailPaths[0]!);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/^Saved /)).toBeVisible();
  await page.getByLabel("Connection", { exact: true }).selectOption({ index: 1 });
  await page.waitForLoadState("networkidle");
  await snapshot(page, haystack);

  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  record(support, haystack);
  await signIn(support, e2eUsers.support);
  await visitAll(support, haystack, ["/", "/data-points?id=dp_loyalty_tier", "/webhooks", "/users"]);
  await supportContext.close();

  // The search works: the recorded pages do contain the (harmless) fingerprints.
  const shown = new RegExp(`<code[^>]*>…(<!-- -->)?${keys[0]!.slice(-4)}</code>`);
  expect(haystack.some(({ where, text }) => where.startsWith("DOM") && shown.test(text))).toBe(true);
  expect(haystack.length).toBeGreaterThan(30);
  expect(leaks(haystack)).toEqual([]);
});
