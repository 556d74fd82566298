/**
 * Check 5: an unsigned event of an unknown kind whose data is nested 5,000 levels deep is stored, and
 * GET /api/webhook-events/{id} answers it as JSON to support (masked) and to an admin, not with a 500.
 */
import crypto from "node:crypto";

import { TENANT_ID } from "@/lib/testing/webhooks";

import { checkResult, type CheckResult } from "./result";
import { deliver } from "./send";
import type { ServiceConsole } from "./service-console";
import { fetchAs } from "./session";

const DEPTH = 5000;
const TYPE = "reliability.deep_nesting";

export async function deepNestingCheck(fixture: ServiceConsole): Promise<CheckResult> {
  const name = `deep nesting (${DEPTH} levels)`;
  const problems: string[] = [];
  const data = `${'{"n":'.repeat(DEPTH)}{"email":"deep@example.com"}${"}".repeat(DEPTH)}`;
  const raw = `{"version":1,"id":"${crypto.randomUUID()}","source":"https://reliability.test","time":"${new Date().toISOString()}","tenantId":"${TENANT_ID}","type":"${TYPE}","data":${data}}`;
  const base = fixture.server.url;
  const posted = await deliver(base, fixture.unsigned.token, raw, []);
  const postStatus = posted.kind === "status" ? posted.status : posted.error;
  if (postStatus !== 200)
    problems.push(`POST answered ${postStatus} ${posted.kind === "status" ? posted.body.slice(0, 200) : ""}`);

  const list = await fetchAs(
    fixture.admin,
    `${base}/api/webhook-events?type=${encodeURIComponent(TYPE)}&connectionId=${fixture.unsigned.id}`,
  );
  let id: number | undefined;
  try {
    id = (JSON.parse(list.body) as { events: Array<{ id: number }> }).events[0]?.id;
  } catch {
    /* reported below */
  }
  if (list.status !== 200 || id === undefined)
    problems.push(`the event list answered ${list.status} without the event: ${list.body.slice(0, 200)}`);
  const details: string[] = [];
  if (id !== undefined) {
    for (const [role, session] of [
      ["support", fixture.support],
      ["admin", fixture.admin],
    ] as const) {
      const got = await fetchAs(session, `${base}/api/webhook-events/${id}`);
      let json = false;
      try {
        JSON.parse(got.body);
        json = true;
      } catch {
        /* not JSON */
      }
      details.push(`${role} ${got.status}${json ? " JSON" : ""} in ${Math.round(got.ms)} ms`);
      if (got.status !== 200 || !json)
        problems.push(`GET /api/webhook-events/${id} as ${role}: ${got.status} ${got.error ?? got.body.slice(0, 200)}`);
    }
  }
  return checkResult(
    name,
    `POST ${postStatus} (${raw.length} bytes); list ${list.status}; detail: ${details.join(", ") || "not fetched"}`,
    problems,
  );
}
