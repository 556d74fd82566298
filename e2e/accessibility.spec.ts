import crypto from "node:crypto";

import { expect, test, type Page } from "@playwright/test";

import { signIn, waitForHydration, type E2eUser } from "./support/auth";
import { axeViolations, expectNoSeriousA11yViolations, sidewaysOverflow } from "./support/axe";
import { addDestination, removeDestination } from "./support/destinations";
import { expireAuthenticator, tenantWebhookUrl } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { openDialog } from "./support/team";

/**
 * Every route and state that matters, as admin and as support: no serious or critical axe violation in either theme
 * (expectNoSeriousA11yViolations), nothing scrolls sideways at 1280×800 (page nor table), and at 390×844 the page
 * itself never does.
 */

type Step = { name: string; roles: ReadonlyArray<E2eUser["role"]>; open: (page: Page) => Promise<void> };

const bothThemes = ["light", "dark"] as const;

const visit = (path: string, heading: string | RegExp) => async (page: Page) => {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading }).filter({ visible: true })).toBeVisible();
  // Streamed sections have answered: no skeleton is left (a skeleton is aria-hidden and has no text to check).
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
};

const openFirstRow = (testId: string) => async (page: Page) => {
  await page.getByTestId(testId).first().getByRole("link").first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("dialog").locator("[aria-busy=true]")).toHaveCount(0);
};

const steps: Step[] = [
  { name: "overview", roles: ["admin", "support"], open: visit("/", "Overview") },
  { name: "alerts", roles: ["admin", "support"], open: visit("/alerts", "Alerts") },
  { name: "connections", roles: ["admin"], open: visit("/connections", "Connections") },
  { name: "new connection", roles: ["admin"], open: visit("/connections/new", /connection/i) },
  {
    name: "a connection's page",
    roles: ["admin"],
    open: async (page) => {
      await visit("/connections", "Connections")(page);
      await page.getByRole("link", { name: "Acme", exact: true }).first().click();
      await expect(page.getByRole("heading", { level: 1, name: "Acme" })).toBeVisible();
      await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
    },
  },
  {
    name: "a connection's delete dialog with a wrong name",
    roles: ["admin"],
    open: async (page) => {
      await page.getByRole("button", { name: "Delete connection" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await page.getByRole("dialog").getByRole("textbox").fill("not the name");
    },
  },
  {
    name: "an unknown connection",
    roles: ["admin"],
    open: visit("/connections/00000000-0000-4000-8000-000000000000", /not found/i),
  },
  { name: "data points", roles: ["admin", "support"], open: visit("/data-points", "Data points") },
  { name: "a data point", roles: ["admin", "support"], open: visit("/data-points?id=dp_loyalty_tier", "Data points") },
  { name: "email OTP", roles: ["admin"], open: visit("/email-otp", "Email OTP") },
  {
    name: "email OTP dialog with a wrong name",
    roles: ["admin"],
    open: async (page) => {
      await visit("/email-otp", "Email OTP")(page);
      await page
        .getByRole("button", { name: /Delete/ })
        .first()
        .click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await dialog.getByRole("textbox").fill("not the name");
    },
  },
  { name: "webhook events", roles: ["admin", "support"], open: visit("/webhooks", "Webhooks") },
  {
    name: "webhook event drawer",
    roles: ["admin", "support"],
    open: async (page) => {
      await visit("/webhooks", "Webhooks")(page);
      await openFirstRow("webhook-event-row")(page);
    },
  },
  { name: "webhook rejections", roles: ["admin", "support"], open: visit("/webhooks?tab=rejections", "Webhooks") },
  {
    name: "webhook rejection drawer",
    roles: ["admin", "support"],
    open: async (page) => {
      await visit("/webhooks?tab=rejections", "Webhooks")(page);
      await openFirstRow("webhook-rejection-row")(page);
    },
  },
  { name: "destinations", roles: ["admin", "support"], open: visit("/destinations", "Destinations") },
  {
    name: "the add-a-destination dialog",
    roles: ["admin"],
    open: async (page) => {
      await visit("/destinations", "Destinations")(page);
      await page.getByRole("button", { name: "Add a destination" }).click();
      // The form's fields load on demand: the scan is of the form, not of its loading state.
      await expect(page.getByRole("dialog").getByRole("form", { name: "Add a destination" })).toBeVisible();
    },
  },
  {
    name: "a destination's page",
    roles: ["admin", "support"],
    open: async (page) => {
      await visit("/destinations", "Destinations")(page);
      await page.getByTestId(`destination-${A11Y_DESTINATION}`).getByRole("link", { name: A11Y_DESTINATION }).click();
      await expect(page.getByRole("heading", { level: 1, name: A11Y_DESTINATION })).toBeVisible();
      await expect(page.getByTestId("attempt-row").or(page.getByTestId("attempt")).first()).toBeAttached();
    },
  },
  {
    name: "a destination's rotation dialog",
    roles: ["admin"],
    open: async (page) => {
      await page.getByRole("button", { name: "Rotate secret" }).click();
      const dialog = page.getByRole("dialog", { name: `Rotate the secret of ${A11Y_DESTINATION}` });
      // The form loads on demand: the scan is of the form, not of its loading state.
      await expect(dialog.getByRole("form", { name: `Rotate the secret of ${A11Y_DESTINATION}` })).toBeVisible();
    },
  },
  { name: "users", roles: ["admin", "support"], open: visit("/users", "Users") },
  {
    name: "a user's authenticators",
    roles: ["admin", "support"],
    open: async (page) => {
      await visit("/users", "Users")(page);
      await page.getByLabel(/User id in/).fill("usr_alice");
      await page.getByRole("button", { name: "Look up" }).click();
      // A table on a wide screen, a list of cards on a narrow one: either way named for the user.
      const name = "Current authenticators of usr_alice";
      const result = page.getByRole("table", { name }).or(page.getByRole("list", { name }));
      await expect(result.filter({ visible: true })).toBeVisible({ timeout: 15_000 });
    },
  },
  {
    name: "users: the erase dialog, counted",
    roles: ["admin"],
    open: async (page) => {
      await visit("/users", "Users")(page);
      await page.getByLabel("User id to erase").fill("usr_alice");
      await page.getByRole("button", { name: "Erase data…" }).click();
      await expect(page.getByRole("dialog").getByTestId("erasure-count")).toBeVisible();
    },
  },
  { name: "audit", roles: ["admin"], open: visit("/audit", "Audit") },
  { name: "audit, as support (refused)", roles: ["support"], open: visit("/audit", /do not have access/) },
  { name: "team", roles: ["admin"], open: visit("/team", "Team") },
  {
    name: "team: the add dialog with its field errors",
    roles: ["admin"],
    open: async (page) => {
      const dialog = await openDialog(page, "Add a user");
      await dialog.getByRole("button", { name: "Add user" }).click();
      await expect(dialog.getByText("Enter an email address.")).toBeVisible();
    },
  },
  {
    name: "team: a user's dialog, then a confirmation",
    roles: ["admin"],
    open: async (page) => {
      await visit("/team", "Team")(page);
      const dialog = await openDialog(page, `Manage ${e2eUsers.support.name}`);
      await expect(dialog.getByRole("button", { name: "Sign out everywhere" })).toBeVisible();
      await expectNoSeriousA11yViolations(page, "team: a user's dialog", bothThemes);
      await dialog.getByRole("button", { name: "Disable" }).click();
      await expect(dialog.getByRole("heading", { name: `Disable ${e2eUsers.support.name}?` })).toBeVisible();
    },
  },
  { name: "team, as support (refused)", roles: ["support"], open: visit("/team", /do not have access/) },
  { name: "API tokens", roles: ["admin"], open: visit("/tokens", "API tokens") },
  // Public, outside the console's frame: a link's form (the token is only checked when sent) and a link cut short.
  { name: "set-password", roles: ["admin"], open: visit(`/set-password#${"A".repeat(43)}`, "Set your password") },
  {
    name: "set-password, an incomplete link",
    roles: ["support"],
    open: async (page) => {
      await visit("/set-password", "Set your password")(page);
      await expect(page.getByText("This link is incomplete")).toBeVisible();
    },
  },
];

/** A Standard Webhooks destination with one failed attempt (nothing listens on its port), for its page's steps. */
const A11Y_DESTINATION = "A11y handler";

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, e2eUsers.admin, "/destinations");
  await addDestination(admin, A11Y_DESTINATION, "http://127.0.0.1:9/a11y", /Standard Webhooks/);
  await admin.getByRole("button", { name: "Done" }).click();
  await admin.getByTestId(`destination-${A11Y_DESTINATION}`).getByRole("link", { name: A11Y_DESTINATION }).click();
  await admin.getByRole("button", { name: "Send a test event" }).click();
  await expect(admin.getByTestId("attempt-row").first()).toBeVisible();
  await context.close();
});

test.afterAll(async ({ browser }) => {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, e2eUsers.admin, "/destinations");
  await removeDestination(admin, A11Y_DESTINATION);
  await context.close();
});

test.beforeAll(async () => {
  // Something in each log: an event and a rejection (a request with the wrong content type).
  await expireAuthenticator(`usr_a11y_${crypto.randomBytes(4).toString("hex")}`);
  const refused = await fetch(await tenantWebhookUrl(), {
    method: "POST",
    headers: { "Content-Type": "text/plain" },
    body: "hello",
  });
  expect(refused.status).toBe(415);
});

for (const role of ["admin", "support"] as const) {
  test.describe(`as ${role}`, () => {
    const user = e2eUsers[role];

    test("every route and state has no serious accessibility violation and fits 1280×800", async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, user);
      for (const step of steps.filter((s) => s.roles.includes(role))) {
        await test.step(step.name, async () => {
          await step.open(page);
          await expectNoSeriousA11yViolations(page, step.name, bothThemes);
          expect(await sidewaysOverflow(page, { tables: true }), step.name).toEqual([]);
        });
      }
    });

    test("every route and state is usable on a 390 px phone, with a real menu button", async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, user);
      for (const step of steps.filter((s) => s.roles.includes(role))) {
        await test.step(step.name, async () => {
          await step.open(page);
          // Narrow screens get their own layouts (cards for tables, the menu button): axe checks those too.
          await expectNoSeriousA11yViolations(page, `${step.name} (390 px)`, bothThemes);
          expect(await sidewaysOverflow(page, { tables: false }), step.name).toEqual([]);
        });
      }
      await test.step("the menu", async () => {
        await page.goto("/");
        const menu = page.getByRole("button", { name: /menu/i });
        await expect(menu).toHaveAttribute("aria-expanded", "false");
        await menu.click();
        await expect(menu).toHaveAttribute("aria-expanded", "true");
        await expectNoSeriousA11yViolations(page, "menu open", bothThemes);
        await page.keyboard.press("Escape");
        await expect(menu).toHaveAttribute("aria-expanded", "false");
        await expect(menu).toBeFocused();
      });
    });
  });
}

test("the skip link takes the keyboard to the page's content", async ({ page }) => {
  await signIn(page, e2eUsers.support, "/webhooks");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

test("the scan itself finds what is planted: low contrast in either theme, an image without a text alternative", async ({
  page,
}) => {
  await signIn(page, e2eUsers.support);
  await visit("/webhooks", "Webhooks")(page);
  await waitForHydration(page);
  await page.evaluate(() => {
    const main = document.querySelector("main")!;
    const faint = Object.assign(document.createElement("p"), { textContent: "Planted: grey on grey" });
    Object.assign(faint.style, { color: "#777", background: "#888" });
    main.append(faint, Object.assign(document.createElement("img"), { src: "/planted.png" }));
  });
  const failure = await expectNoSeriousA11yViolations(page, "planted", bothThemes).then(
    () => "no violation found",
    (error: Error) => error.message,
  );
  expect(failure).toContain("planted (light): color-contrast");
  expect(failure).toContain("planted (light): image-alt");
  expect(failure).toContain("planted (dark): color-contrast");
});

test("the scan reads the page at rest: a text still fading in to full contrast is read once its transition ends", async ({
  page,
}) => {
  await signIn(page, e2eUsers.support);
  await visit("/webhooks", "Webhooks")(page);
  await waitForHydration(page);
  await page.evaluate(() => {
    const fading = Object.assign(document.createElement("p"), { textContent: "Planted: fading in" });
    Object.assign(fading.style, { color: "#cccccc", background: "#ffffff", transition: "color 600ms linear" });
    document.querySelector("main")!.append(fading);
    void getComputedStyle(fading).color; // light grey on white (1.6:1) is applied, so the change below is a transition
    fading.style.color = "#000000";
  });
  await expectNoSeriousA11yViolations(page, "fading in");
  await expect(page.getByText("Planted: fading in"), "the scan read the planted text").toBeVisible();
});

test("the scan reads the page at rest: a transition that starts during the scan makes it scan again", async ({
  page,
}) => {
  await signIn(page, e2eUsers.support);
  await visit("/webhooks", "Webhooks")(page);
  await waitForHydration(page);
  await axeViolations(page, { include: "main", runOnly: { type: "rule", values: ["image-alt"] } }); // puts axe in the page
  await page.evaluate(() => {
    const fading = Object.assign(document.createElement("p"), { textContent: "Planted: fading in late" });
    Object.assign(fading.style, { color: "#cccccc", background: "#ffffff", transition: "color 600ms linear" });
    document.querySelector("main")!.append(fading);
    void getComputedStyle(fading).color; // light grey on white: 1.6:1, a violation until the fade ends
    // As an island hydrating late enables its buttons: the fade starts once the scan has begun.
    const { axe } = window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } };
    const run = axe.run;
    axe.run = (...args) => {
      axe.run = run;
      setTimeout(() => (fading.style.color = "#000000"));
      return run.apply(axe, args);
    };
  });
  await expectNoSeriousA11yViolations(page, "fading in late");
  await expect(page.getByText("Planted: fading in late"), "the scan read the planted text").toBeVisible();
});
