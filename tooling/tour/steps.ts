import {
  alertCard,
  appears,
  chooseTheme,
  firstVisible,
  heading,
  openDrawer,
  openPage,
  reloadAlertsUntil,
  resendLatestEvent,
  settled,
  testEventAnswer,
  themeControl,
  WAIT_MS,
} from "./page";
import { TOUR_VIEWPORT, type TourStep } from "./step";

/** The tour's steps, in order; ./play.ts plays them. */
export const TOUR_STEPS: readonly TourStep[] = [
  {
    slug: "sign-in",
    caption: "Sign in with a console account, or with single sign-on",
    async run(page, { user }) {
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill(user.password);
    },
    async leave(page) {
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      // "commit": the console's pages stream, so their load event may come late.
      await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: WAIT_MS, waitUntil: "commit" });
    },
  },
  {
    slug: "overview",
    caption: "The overview: every tenant's health, what expired, how late events arrive, why deliveries were refused",
    fullPage: true,
    settleMs: 300,
    run: (page) => openPage(page, "/", "Overview"),
  },
  {
    slug: "connection",
    caption: "A connection's Webhooks tab: its receiver URL, and a signed test event through it",
    // On a phone the test's answer comes after the receiver URL.
    inView: (page) => page.getByTestId("test-event-result"),
    async run(page, { connectionName }) {
      await page.goto("/connections");
      const link = page.getByRole("link", { name: connectionName, exact: true });
      if (!(await appears(link))) return { skipped: `no link to the connection ${connectionName} on /connections` };
      await firstVisible(link).click();
      if (!(await appears(heading(page, connectionName))))
        return { skipped: `the connection page of ${connectionName} has no heading` };
      await settled(page);
      await page.getByRole("tab", { name: "Webhooks" }).click();
      const send = page.getByRole("button", { name: "Send a test event" });
      if (!(await appears(send, 2_000)))
        return { note: "no “Send a test event” button in this build: the page is shown without it" };
      await firstVisible(send).click();
      if (!(await appears(testEventAnswer(page)))) return { note: "“Send a test event” showed no answer within 15 s" };
    },
  },
  {
    slug: "webhook-log",
    caption: "The webhook log: every authenticator.expired event, verified, filterable, each one in a drawer",
    async run(page) {
      const missing = await openPage(page, "/webhooks", "Webhooks");
      if (missing) return missing;
      // A real event, not the test event the connection step just sent (its row has a "Test" badge).
      const row = page.getByTestId("webhook-event-row").filter({ hasNotText: /\bTest\b/ });
      if (!(await appears(row))) return { skipped: "the webhook log has no events yet" };
      if (!(await openDrawer(row, page.getByRole("dialog", { name: "Event details" }))))
        return { skipped: "the event drawer did not open" };
    },
  },
  {
    slug: "rejection",
    caption: "A refused delivery, and why: here a signature made with a key the console does not hold",
    async run(page) {
      const missing = await openPage(page, "/webhooks?tab=rejections", "Webhooks");
      if (missing) return missing;
      const rows = page.getByTestId("webhook-rejection-row");
      if (!(await appears(rows))) return { skipped: "no rejections yet" };
      const badSignature = rows.filter({ hasText: "Bad signature" });
      const row = (await badSignature.count()) > 0 ? badSignature : rows;
      if (!(await openDrawer(row, page.getByRole("dialog", { name: "Rejection details" }))))
        return { skipped: "the rejection drawer did not open" };
    },
  },
  {
    slug: "destinations",
    caption: "Destinations: each event forwarded to the tenant's own handler, signed as the service, with its health",
    run: (page) => openPage(page, "/destinations", "Destinations"),
  },
  {
    slug: "destination",
    caption: "A destination's own page: its attempts, delivery rate and p95 latency, a test event and its secret",
    settleMs: 300,
    async run(page) {
      const missing = await openPage(page, "/destinations", "Destinations");
      if (missing) return missing;
      const link = page.locator("[data-testid^='destination-'] h3 a");
      if (!(await appears(link))) return { skipped: "no destination to open" };
      await firstVisible(link).click();
      if (!(await appears(page.getByRole("heading", { name: "Attempts", level: 2 }))))
        return { skipped: "the destination's page did not open" };
      await settled(page);
    },
  },
  {
    slug: "forwards",
    caption: "An event's forwards: every attempt and its answer, and Resend",
    inView: (page) => page.getByTestId("event-forwards"),
    async run(page) {
      const missing = await openPage(page, "/webhooks?test=exclude", "Webhooks");
      if (missing) return missing;
      const row = page.getByTestId("webhook-event-row");
      if (!(await appears(row))) return { skipped: "the webhook log has no events yet" };
      if (!(await openDrawer(row, page.getByRole("dialog", { name: "Event details" }))))
        return { skipped: "the event drawer did not open" };
      const forwards = page.getByTestId("event-forwards");
      if (!(await appears(forwards.getByText(/Delivered|Waiting|Failed/).first())))
        return { skipped: "the drawer shows no forward" };
    },
  },
  {
    slug: "replay",
    caption: "Replay: what the log's filters select, sent to a destination again, counted first, with its progress",
    async run(page) {
      const missing = await openPage(page, "/webhooks?test=exclude&verificationMethod=SMS", "Webhooks");
      if (missing) return missing;
      const replay = page.getByRole("button", { name: "Replay…" });
      if (!(await appears(replay, 5_000))) return { skipped: "no Replay button (no destination turned on)" };
      await replay.click();
      const start = page.getByRole("button", { name: /^Replay \d+ events?$/ });
      if (!(await appears(start))) return { skipped: "the replay dialog counted no event" };
      await start.click();
      if (!(await appears(page.getByTestId("replay-progress").filter({ hasText: "Finished" }), 30_000)))
        return { note: "the replay had not finished after 30 s" };
    },
    async leave(page) {
      await page.keyboard.press("Escape");
    },
  },
  {
    slug: "alert-opened",
    caption:
      "An alert: the tenant's app answers 503, and the console opens “Destination failing”, shown on every page and sent as a signed webhook and an email",
    inView: (page) => page.getByTestId("alert").filter({ hasText: "Destination failing" }),
    async run(page, { connectionName, tenantApp }) {
      // Down for longer than the tour takes to notice it; the next step brings it back.
      tenantApp.failFor(10 * 60_000);
      const failed = await resendLatestEvent(page, connectionName);
      if (failed) return failed;
      const title = `Destination failing on ${connectionName}`;
      const opened = await reloadAlertsUntil(
        page,
        "state=open",
        async () => (await alertCard(page, title).count()) > 0,
      );
      if (!opened) return { skipped: `no open “${title}” alert within a minute` };
    },
  },
  {
    slug: "alert-resolved",
    caption: "The app is back and delivers: the alert resolves once it has stayed clear, with a “resolved” notice",
    inView: (page) => page.getByTestId("alert").filter({ hasText: "Destination failing" }).first(),
    async run(page, { connectionName, tenantApp }) {
      tenantApp.failFor(0);
      const delivered = await resendLatestEvent(page, connectionName);
      if (delivered) return delivered;
      const title = `Destination failing on ${connectionName}`;
      // Clear at the next evaluation, resolved at the first one after the hold (the demo's and e2e's are short).
      const resolved = await reloadAlertsUntil(
        page,
        "state=open",
        async () => (await alertCard(page, title).count()) === 0,
        90_000,
      );
      if (!resolved) return { skipped: `“${title}” was still open after 90 s` };
      if (!(await reloadAlertsUntil(page, "state=resolved", async () => (await alertCard(page, title).count()) > 0)))
        return { skipped: `no resolved “${title}” alert` };
    },
  },
  {
    slug: "data-points",
    caption: "Custom data points: look one up by id, keep a watch list",
    async run(page) {
      const missing = await openPage(page, "/data-points?id=dp_loyalty_tier", "Data points");
      if (missing) return missing;
      await appears(page.getByTestId("data-point-name"));
    },
  },
  {
    slug: "email-otp",
    caption: "Email OTP: the tenant's configuration, deleted only behind a typed confirmation",
    run: (page) => openPage(page, "/email-otp", "Email OTP configuration"),
  },
  {
    slug: "audit",
    caption: "The audit log: who changed what, in which connection, and how it went",
    run: (page) => openPage(page, "/audit", "Audit"),
  },
  {
    slug: "team",
    caption: "The team: roles, disabled accounts, sessions ended everywhere",
    run: (page) => openPage(page, "/team", "Team"),
  },
  {
    slug: "theme",
    caption: "Light, dark or the system's theme, remembered",
    async run(page) {
      const control = await themeControl(page, page.viewportSize()?.width ?? TOUR_VIEWPORT.width);
      if (!(await appears(control, 5_000))) return { skipped: "no Theme control in the header" };
      await chooseTheme(control, "Dark");
    },
    async showVariant(page, variant) {
      const control = await themeControl(page, variant.viewport.width);
      await chooseTheme(control, variant.scheme === "dark" ? "Dark" : "Light");
    },
    async leave(page) {
      const control = await themeControl(page, page.viewportSize()?.width ?? TOUR_VIEWPORT.width);
      await chooseTheme(control, "System");
      await page.keyboard.press("Escape");
    },
  },
];
