/**
 * The fuzzer's plan: a deterministic list (from a seed) of requests with the answer the contract requires, written
 * out by what the generator did, never by asking the app's schemas: no imports from the app, so the fuzzer shares
 * none of the receiver's mistakes. The cases' order fixes the seed's rolls.
 */
import type { Identity, Plan } from "./case";
import { BODY_CASES } from "./cases-body";
import { ENVELOPE_CASES } from "./cases-envelope";
import { REQUEST_CASES } from "./cases-request";
import { SIGNATURE_CASES } from "./cases-signature";
import { VALID_CASES } from "./cases-valid";
import type { Gen, Weighted } from "./generator";
import { Rng } from "./rng";

export type { FuzzCase, Plan, Tokens } from "./case";

/** Every kind of case with its weight. */
const TABLE: Weighted[] = [...VALID_CASES, ...BODY_CASES, ...ENVELOPE_CASES, ...SIGNATURE_CASES, ...REQUEST_CASES];

export function planFuzzCases(seed: number, requests: number): Plan {
  const r = new Rng(seed);
  const tag = (seed >>> 0).toString(36);
  const identities: Identity[] = Array.from({ length: 48 }, (_, i) => {
    const emailLocal = `fzmail${tag}x${i}`;
    const phoneDigits = `1555${String(r.int(10_000_000)).padStart(7, "0")}`;
    return {
      userId: `usr_fz${tag}_${i}`,
      email: `${emailLocal}@example.test`,
      emailLocal,
      phone: `+${phoneDigits}`,
      phoneDigits,
    };
  });
  const markers = ["a", "b", "c", "d"].map((s) => `fzmk${tag}${s}q`);
  const tenants = [r.uuid(), r.uuid(), "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01"];
  const g: Gen = { r, tag, identities, markers, tenants, cases: [], events: [] };

  const total = TABLE.reduce((sum, w) => sum + w.weight, 0);
  while (g.cases.length < requests) {
    let roll = r.float() * total;
    const entry = TABLE.find((w) => (roll -= w.weight) < 0) ?? TABLE[0]!;
    entry.gen(g);
  }
  g.cases.length = requests;

  const neverInLogs = [
    ...markers,
    ...identities.flatMap((i) => [i.userId, i.email, i.emailLocal, i.phone, i.phoneDigits]),
  ];
  return { cases: g.cases, neverInLogs };
}

/** The table's weights as proportions, for the report. */
export function caseWeights(): { kind: string; percent: number }[] {
  const total = TABLE.reduce((sum, w) => sum + w.weight, 0);
  return TABLE.map((w) => ({ kind: w.kind, percent: Math.round((w.weight / total) * 1000) / 10 }));
}
