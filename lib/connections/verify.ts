import "server-only";

import crypto from "node:crypto";

import { getCustomDataPoint, type RequestOptions } from "@/lib/service";
import { regions, type Region } from "@/lib/service/regions";

export type KeyCheck =
  | { status: "verified"; httpStatus: number }
  | { status: "invalid"; httpStatus: number }
  | { status: "wrong_region"; region: Region; httpStatus: number }
  | { status: "unreachable"; httpStatus: number | null };

/**
 * Checks a management key against a region without changing anything: a GET of a data point id
 * that cannot exist answers 404 when the key is accepted and 401 when it is not. A refused key is
 * tried in the other regions, so the admin learns "this key belongs to EU" instead of "invalid key".
 */
export async function checkManagementKey(
  region: Region,
  managementKey: string,
  options?: RequestOptions,
): Promise<KeyCheck> {
  const probeId = () => `console_key_check_${crypto.randomBytes(8).toString("hex")}`;
  const result = await getCustomDataPoint({ region, managementKey }, probeId(), options);
  if (result.kind === "not_found" || result.kind === "ok") return { status: "verified", httpStatus: result.status };
  if (result.kind !== "unauthorized") return { status: "unreachable", httpStatus: result.status };

  const others = regions.filter((r) => r !== region);
  const answers = await Promise.all(
    others.map((r) => getCustomDataPoint({ region: r, managementKey }, probeId(), options)),
  );
  const home = others.find((_, i) => {
    const kind = answers[i]?.kind;
    return kind === "not_found" || kind === "ok";
  });
  return home ? { status: "wrong_region", region: home, httpStatus: 401 } : { status: "invalid", httpStatus: 401 };
}
