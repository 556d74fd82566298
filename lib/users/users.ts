import "server-only";

import { recordAudit } from "@/lib/audit/audit";
import type { SessionUser } from "@/lib/auth/guards";
import { readConnectionSecret } from "@/lib/connections/connections";
import type { ConnectionChoice } from "@/lib/connections/types";
import { getUserAuthenticators, trackAction, type ServiceResult } from "@/lib/service";
import { describeServiceFailure } from "@/lib/service/messages";
import { regionLabels } from "@/lib/service/regions";

import type { AuthenticatorLookup } from "./types";

/** The action the console tracks to get a client token; it shows in the tenant's action history. */
export const LOOKUP_ACTION = "console_authenticator_lookup";

function failureMessage(
  result: Exclude<ServiceResult<unknown>, { kind: "ok" }>,
  connection: ConnectionChoice,
  step: "track" | "read",
): string {
  if (result.kind === "unauthorized") {
    return step === "track"
      ? `The ${regionLabels[connection.region]} region refused the server API secret key stored for ${connection.name} (HTTP 401). Replace it on the connection's page.`
      : "The service refused the client token it had just issued (HTTP 401). Try again.";
  }
  return describeServiceFailure(result, connection);
}

/**
 * Reads a user's current authenticators the way the spec allows: track an action through the server
 * API (spec 4.4, with the server secret key), then GET /user-authenticators on the client API with the
 * returned token (spec 4.3, 5.2). Expired credentials are already gone from the answer (spec 3).
 */
export async function lookUpUserAuthenticators(
  actor: SessionUser,
  connection: ConnectionChoice,
  userId: string,
): Promise<AuthenticatorLookup> {
  const serverKey = await readConnectionSecret(connection.id, "server");
  if (!serverKey) return { kind: "no_server_key" };

  const audit = (outcome: "success" | "failure", httpStatus: number | null, requestId: string) =>
    recordAudit({
      actor,
      action: "user_authenticators.viewed",
      outcome,
      connection,
      target: userId,
      httpStatus: httpStatus ?? undefined,
      requestId,
    });

  const tracked = await trackAction({ region: connection.region, serverKey }, userId, LOOKUP_ACTION);
  if (tracked.kind !== "ok") {
    await audit("failure", tracked.status, tracked.requestId);
    return { kind: "failed", message: failureMessage(tracked, connection, "track") };
  }
  const read = await getUserAuthenticators(connection.region, tracked.data.token);
  await audit(read.kind === "ok" ? "success" : "failure", read.status, read.requestId);
  if (read.kind !== "ok") return { kind: "failed", message: failureMessage(read, connection, "read") };
  return { kind: "ok", authenticators: read.data };
}
