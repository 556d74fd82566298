/**
 * Check 4: every page that calls the service, under each fault mode of the emulator (500, 429, hang):
 * the whole streamed page arrives within 12 s with status 200 and the failure's message instead of the
 * success content; pages that do not call the service still answer. No unhandled rejection is logged.
 */
import { clearFaults, setFault } from "./emulator";
import { checkResult, type CheckResult } from "./result";
import type { ServiceConsole } from "./service-console";
import { fetchAs, type Fetched } from "./session";

const PAGE_LIMIT_MS = 12_000;

type PageCase = { name: string; path: string; headers?: Record<string, string>; success?: string };

const modes = [
  { mode: "500", message: /answered with an error \(HTTP 500\)/ },
  { mode: "429", message: /rate-limiting/ },
  { mode: "hang", message: /could not be reached in time/ },
] as const;
const anyFailure = /answered with an error \(HTTP|rate-limiting|could not be reached in time|Lookup failed/;

function pagesOf(fixture: ServiceConsole): PageCase[] {
  return [
    { name: "email OTP", path: "/email-otp", success: "SENDGRID" },
    {
      name: "data point lookup + watch list",
      path: "/data-points?id=dp_loyalty_tier",
      success: 'data-testid="data-point-name"',
    },
    // The lookup runs only for a request from the console itself (lib/auth/fetch-metadata.ts).
    // ua_alice_passkey never expires (the seed's other authenticators expire minutes after the emulator starts).
    {
      name: "user lookup",
      path: "/users?userId=usr_alice&lookup=1",
      headers: { "sec-fetch-site": "same-origin" },
      success: "ua_alice_passkey",
    },
    // These do not call the service when they render; under a fault they must still answer.
    { name: "connection detail", path: `/connections/${fixture.acmeId}` },
    { name: "overview", path: "/" },
  ];
}

function judge(page: PageCase, fetched: Fetched, expected: RegExp | null): string | undefined {
  const where = `${page.name} (${page.path})`;
  if (fetched.error) return `${where}: ${fetched.error} after ${Math.round(fetched.ms)} ms`;
  if (fetched.status !== 200) return `${where}: HTTP ${fetched.status}`;
  if (fetched.ms > PAGE_LIMIT_MS) return `${where}: took ${Math.round(fetched.ms)} ms (limit ${PAGE_LIMIT_MS})`;
  if (!page.success) return undefined;
  if (expected === null) {
    if (!fetched.body.includes(page.success)) return `${where}: no success content without a fault (${page.success})`;
    if (anyFailure.test(fetched.body)) return `${where}: a failure message without a fault`;
    return undefined;
  }
  if (fetched.body.includes(page.success)) return `${where}: shows the success content under the fault`;
  if (!expected.test(fetched.body)) return `${where}: no "${expected.source}" message under the fault`;
  return undefined;
}

export async function faultsCheck(emulatorUrl: string, fixture: ServiceConsole): Promise<CheckResult> {
  const name = "service faults on every page";
  const pages = pagesOf(fixture);
  const problems: string[] = [];
  const figures: string[] = [];
  const visit = (page: PageCase) => fetchAs(fixture.admin, `${fixture.server.url}${page.path}`, page.headers ?? {});
  try {
    const baseline = await Promise.all(pages.map(visit));
    pages.forEach((page, i) => {
      const problem = judge(page, baseline[i]!, null);
      if (problem) problems.push(`baseline: ${problem}`);
    });
    figures.push(`baseline max ${(Math.max(...baseline.map((f) => f.ms)) / 1000).toFixed(1)} s`);
    for (const { mode, message } of modes) {
      await setFault(emulatorUrl, { region: "us", mode, count: 100_000 });
      try {
        const fetched = await Promise.all(pages.map(visit));
        pages.forEach((page, i) => {
          const problem = judge(page, fetched[i]!, message);
          if (problem) problems.push(`${mode}: ${problem}`);
        });
        figures.push(`${mode} max ${(Math.max(...fetched.map((f) => f.ms)) / 1000).toFixed(1)} s`);
      } finally {
        await clearFaults(emulatorUrl);
      }
    }
  } catch (error) {
    problems.push(String((error as Error).stack ?? error));
  }
  await new Promise((r) => setTimeout(r, 500));
  const unhandled = fixture.server
    .output()
    .split("\n")
    .filter((l) => /unhandled/i.test(l));
  problems.push(...unhandled.map((l) => `server output: ${l}`));
  return checkResult(
    name,
    `${pages.length} pages (3 call the service) x ${modes.length} modes; ${figures.join(", ")}; ${unhandled.length} unhandled-rejection lines`,
    problems,
  );
}
