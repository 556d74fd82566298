import type { IncomingMessage } from "node:http";

import { basicAuthUsername } from "./auth";
import { ApiError } from "./http";
import type { Region } from "./seed";
import type { TenantState } from "./state";
import type { EmulatorWorld } from "./world";

/** What a regional API handler gets for one request. */
export interface RegionContext {
  world: EmulatorWorld;
  region: Region;
  req: IncomingMessage;
  url: URL;
}

/** 401 with the challenge that says which credentials to send (every 401 of the regional APIs). */
export function unauthorized(description: string, scheme: "Basic" | "Bearer", code = "unauthorized"): ApiError {
  return new ApiError(401, code, description, { "WWW-Authenticate": `${scheme} realm="authsignal"` });
}

/** Resolves the tenant from an HTTP basic username, or throws 401 (keys of other regions do not match). */
export function tenantFromBasicAuth(
  context: RegionContext,
  findByKey: (region: Region, key: string) => TenantState | undefined,
  keyName: string,
): TenantState {
  const key = basicAuthUsername(context.req.headers.authorization);
  const tenant = key ? findByKey(context.region, key) : undefined;
  if (!tenant) throw unauthorized(`A valid ${keyName} is required as the basic-auth username.`, "Basic");
  return tenant;
}
