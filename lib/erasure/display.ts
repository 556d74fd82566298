import type { ErasureCounts } from "./types";

/** Client-safe: an erasure's counts in words, for the Users page's dialog and the CLI. */

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

const KINDS: Array<[keyof ErasureCounts, string, string?]> = [
  ["events", "event"],
  ["rejections", "rejection"],
  ["deliveries", "queued or sent forward", "queued or sent forwards"],
  ["attempts", "forwarding attempt"],
  ["watches", "watch list entry", "watch list entries"],
  ["auditRecords", "audit record naming them", "audit records naming them"],
  ["replays", "replay filtered on them", "replays filtered on them"],
];

/** "3 events, 1 rejection and 2 queued or sent forwards": the kinds there are, or "nothing" when none. */
export function countsInWords(counts: Partial<ErasureCounts>): string {
  const parts = KINDS.filter(([kind]) => (counts[kind] ?? 0) > 0).map(([kind, one, many]) =>
    count(counts[kind]!, one, many),
  );
  if (parts.length === 0) return "nothing";
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}
