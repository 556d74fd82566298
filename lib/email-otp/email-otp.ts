import "server-only";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getServiceConnection } from "@/lib/connections/connections";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { deleteEmailOtpConfiguration, getEmailOtpConfiguration } from "@/lib/service";
import { describeServiceFailure } from "@/lib/service/messages";

import { emailOtpDisplayFields } from "./fields";
import { deleteEmailOtpSchema, type DeleteEmailOtpInput } from "./schemas";
import type { DeleteEmailOtpResult, EmailOtpStatus } from "./types";

type ServiceConnection = NonNullable<Awaited<ReturnType<typeof getServiceConnection>>>;

/** The configuration as the page shows it. Takes the id: the decrypted key never leaves this module. */
export async function getEmailOtpStatus(connectionId: string): Promise<EmailOtpStatus> {
  const connection = await getServiceConnection(connectionId);
  if (!connection)
    return { kind: "failure", failure: "not_found", httpStatus: null, message: "This connection no longer exists." };
  const result = await getEmailOtpConfiguration(connection);
  if (result.kind === "ok") return { kind: "present", fields: emailOtpDisplayFields(result.data) };
  if (result.kind === "not_found") return { kind: "absent" };
  return {
    kind: "failure",
    failure: result.kind,
    httpStatus: result.status,
    message: describeServiceFailure(result, connection),
  };
}

// One delete per admin and connection at a time in this process: a double click or a second tab shares the first
// request's answer. Claimed before the first await, so a second submit always finds it.
type InFlightDelete = { connection: Promise<ServiceConnection | undefined>; deletion?: Promise<DeleteEmailOtpResult> };
const inFlight = new Map<string, InFlightDelete>();

export async function deleteEmailOtp(actor: AuditActor, raw: DeleteEmailOtpInput): Promise<DeleteEmailOtpResult> {
  const parsed = deleteEmailOtpSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the form." };
  const key = `${parsed.data.connectionId} ${actor.id ?? actor.email}`;
  const claimed = inFlight.get(key) ?? { connection: getServiceConnection(parsed.data.connectionId) };
  inFlight.set(key, claimed);
  const release = () => {
    if (inFlight.get(key) === claimed) inFlight.delete(key);
  };
  const connection = await claimed.connection.catch((error: unknown) => {
    release();
    throw error;
  });
  // Each submit is checked on its own: a wrong name never rides on a delete in flight.
  if (!connection || parsed.data.confirmName !== connection.name) {
    if (!claimed.deletion) release();
    return connection
      ? { ok: false, error: `Type ${connection.name} to confirm.` }
      : { ok: false, error: "This connection no longer exists." };
  }
  claimed.deletion ??= runDelete(actor, connection).finally(release);
  return claimed.deletion;
}

async function runDelete(actor: AuditActor, connection: ServiceConnection): Promise<DeleteEmailOtpResult> {
  const result = await deleteEmailOtpConfiguration(connection);
  const audit = (outcome: "success" | "failure") =>
    recordAudit({
      actor,
      outcome,
      action: "email_otp.deleted",
      connection: { id: connection.id, name: connection.name },
      httpStatus: result.status ?? undefined,
      requestId: result.requestId,
      details: { result: result.kind, region: connection.region },
    }).catch((error) => {
      // The service has answered; a lost audit row must not make the admin think otherwise.
      logger.error("audit record not written", {
        action: "email_otp.deleted",
        connectionId: connection.id,
        error: errorMessage(error),
      });
    });
  switch (result.kind) {
    case "ok":
      if (!result.data.success) {
        await audit("failure");
        return {
          ok: false,
          failure: "invalid_response",
          error: `Not deleted: the service answered that the delete did not succeed. Try again.`,
        };
      }
      await audit("success");
      return { ok: true, outcome: "deleted", message: `Deleted the email OTP configuration of ${connection.name}.` };
    case "not_found":
      await audit("failure");
      return {
        ok: true,
        outcome: "none",
        message: `There was no email OTP configuration in ${connection.name}: nothing to delete.`,
      };
    case "unavailable":
    case "rate_limited":
      await audit("failure");
      return {
        ok: false,
        failure: result.kind,
        error:
          result.kind === "unavailable" && result.status === null
            ? `Not confirmed as deleted: the ${connection.name} region did not answer in time. Check the status below and try again.`
            : `Not deleted: the service answered HTTP ${result.status}. Try again.`,
      };
    case "invalid_response":
      await audit("failure");
      // A 2xx in an unexpected form may still mean the service deleted it: say so rather than "nothing changed".
      return {
        ok: false,
        failure: result.kind,
        error: isSuccessStatus(result.status)
          ? `Not confirmed as deleted: the service answered HTTP ${result.status} in a form the console does not understand. Check the status below.`
          : describeServiceFailure(result, connection),
      };
    default:
      await audit("failure");
      return { ok: false, failure: result.kind, error: describeServiceFailure(result, connection) };
  }
}

function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}
