/** One check's outcome: a PASS/FAIL/SKIP line with its figures, and what went wrong. */
export type CheckResult = { name: string; status: "PASS" | "FAIL" | "SKIP"; figures: string; problems: string[] };

export function checkResult(name: string, figures: string, problems: string[]): CheckResult {
  return { name, status: problems.length === 0 ? "PASS" : "FAIL", figures, problems };
}

export function skipped(name: string, why: string): CheckResult {
  return { name, status: "SKIP", figures: why, problems: [] };
}

export function formatResult(r: CheckResult): string {
  const lines = [`${r.status} ${r.name}: ${r.figures}`];
  const shown = r.problems.slice(0, Number(process.env.RELIABILITY_MAX_PROBLEMS ?? 12));
  for (const p of shown) lines.push(`    - ${p.replace(/\s+/g, " ").slice(0, 400)}`);
  if (r.problems.length > shown.length) lines.push(`    - … and ${r.problems.length - shown.length} more`);
  return lines.join("\n");
}
