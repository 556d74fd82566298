import "server-only";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { getServiceConnection } from "@/lib/connections/repository";
import { errorMessage, logger } from "@/lib/logger";
import { deleteEmailOtpConfiguration, getEmailOtpConfiguration } from "@/lib/service";
import { describeServiceFailure } from "@/lib/service/messages";
import type { EmailOtpConfiguration } from "@/lib/service/schemas";
import { deleteEmailOtpSchema, type DeleteEmailOtpInput } from "./schemas";
import type { DeleteEmailOtpResult, EmailOtpField, EmailOtpStatus } from "./types";

type ServiceConnection = NonNullable<Awaited<ReturnType<typeof getServiceConnection>>>;

/** Fields whose names suggest a credential are never shown, should the service ever return one. */
const SECRETISH = /secret|key|password|token|credential/i;

function displayFields(config: EmailOtpConfiguration): EmailOtpField[] {
  return Object.entries(config)
    .filter(([name, value]) => !SECRETISH.test(name) && value !== null && typeof value !== "object")
    .map(([name, value]) => ({ name, value: String(value) }));
}

export async function getEmailOtpStatus(connection: ServiceConnection): Promise<EmailOtpStatus> {
  const result = await getEmailOtpConfiguration(connection);
  if (result.kind === "ok") return { kind: "present", fields: displayFields(result.data) };
  if (result.kind === "not_found") return { kind: "absent" };
  return { kind: "failure", failure: result.kind, httpStatus: result.status, message: describeServiceFailure(result, connection) };
}

// One delete per admin and connection at a time in this process: a double click (or two tabs) shares
// the first request's answer instead of sending a second DELETE. Another admin's delete is its own
// request, checked and audited for them.
const inFlight = new Map<string, Promise<DeleteEmailOtpResult>>();

export async function deleteEmailOtp(actor: AuditActor, raw: DeleteEmailOtpInput): Promise<DeleteEmailOtpResult> {
  const parsed = deleteEmailOtpSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the form." };
  const connection = await getServiceConnection(parsed.data.connectionId);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  if (parsed.data.confirmName !== connection.name) return { ok: false, error: `Type ${connection.name} to confirm.` };

  const key = `${connection.id} ${actor.id ?? actor.email}`;
  const running = inFlight.get(key);
  if (running) return running;
  const work = runDelete(actor, connection).finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
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
      logger.error("audit record not written", { action: "email_otp.deleted", connectionId: connection.id, error: errorMessage(error) });
    });
  switch (result.kind) {
    case "ok":
      await audit("success");
      return { ok: true, outcome: "deleted", message: `Deleted the email OTP configuration of ${connection.name}.` };
    case "not_found":
      await audit("failure");
      return { ok: true, outcome: "none", message: `There was no email OTP configuration in ${connection.name}: nothing to delete.` };
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
    default:
      await audit("failure");
      return { ok: false, failure: result.kind, error: describeServiceFailure(result, connection) };
  }
}
