import "server-only";

import { sql } from "drizzle-orm";

import { rowsOf, type Executor } from "@/lib/db";
import { MISSING_SIGNATURE_DETAIL, TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";

import {
  BAD_SIGNATURE_WINDOW_MINUTES,
  COUNT_WINDOW_MINUTES,
  SILENCE_LOOKBACK_DAYS,
  THRESHOLDS,
  type AlertKind,
} from "./constants";
import { defaultThreshold } from "./thresholds";
import type { AlertMeasure } from "./types";

/**
 * The conditions, measured in the database: one statement counts per connection what each condition needs over its
 * window (index range reads, never rows pulled into JavaScript), one lists the destinations failing past their
 * threshold; `firingConditions` then says which hold.
 */

export type ConnectionMeasures = {
  connectionId: string;
  hasServerKey: boolean;
  lastEventAt: Date | null;
  /** Of the SILENCE_LOOKBACK_DAYS days before, how many had an event in the same hours of the day as the silence. */
  trafficDays: number;
  badSignatures: number;
  unsigned: number;
  late: number;
  receiverErrors: number;
  thresholds: {
    silenceHours: number;
    badSignatures: number;
    unsignedEvents: number;
    lateEvents: number;
    receiverErrors: number;
  };
};

export type FailingDestination = {
  connectionId: string;
  destinationId: string;
  name: string;
  failingSince: Date | null;
  pausedAt: Date | null;
  thresholdMinutes: number;
  /** Why it cannot sign (lib/destinations/signers.ts): fires at once, as no attempt can succeed until someone acts. */
  signingProblem: string | null;
  /** Its circuit breaker: tripped since, and the next probe. */
  trippedAt: Date | null;
  probeAt: Date | null;
};

/** A condition that holds now: what the evaluator opens or keeps open. */
export type Firing = { connectionId: string; kind: AlertKind; subject: string; measure: AlertMeasure };

type Row = Record<string, unknown>;
const date = (v: unknown) => (v == null ? null : new Date(v as string));
const threshold = (column: string, name: keyof typeof THRESHOLDS) =>
  sql.raw(`coalesce(t.${column}, ${defaultThreshold(name)})`);

export async function measureConnections(db: Executor, now: Date): Promise<ConnectionMeasures[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const hour = sql`make_interval(mins => ${COUNT_WINDOW_MINUTES})`;
  const realRejection = sql`(r.event_id is null or r.event_id not like ${TEST_EVENT_ID_PREFIX + "%"})`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select c.id, s.silence_hours,
        exists (select 1 from connection_secrets k where k.connection_id = c.id and k.kind = 'server') as has_server_key,
        (select max(e.first_received_at) from webhook_events e where e.connection_id = c.id and not e.is_test and e.first_received_at <= ${at}) as last_event_at,
        (select count(*) from generate_series(1, ${SILENCE_LOOKBACK_DAYS}) d where exists (
          select 1 from webhook_events e where e.connection_id = c.id and not e.is_test
            and e.first_received_at > ${at} - make_interval(days => d, hours => s.silence_hours)
            and e.first_received_at <= ${at} - make_interval(days => d))) as traffic_days,
        (select count(*) from webhook_rejections r where r.connection_id = c.id and ${realRejection}
            and r.received_at > ${at} - make_interval(mins => ${BAD_SIGNATURE_WINDOW_MINUTES}) and r.received_at <= ${at}
            and r.reason = 'bad_signature' and r.detail is distinct from ${MISSING_SIGNATURE_DETAIL}) as bad_signatures,
        (select count(*) from webhook_rejections r where r.connection_id = c.id and ${realRejection}
            and r.received_at > ${at} - ${hour} and r.received_at <= ${at}
            and r.reason = 'bad_signature' and r.detail = ${MISSING_SIGNATURE_DETAIL})
          + (select count(*) from webhook_events e where e.connection_id = c.id and not e.is_test
            and e.first_received_at > ${at} - ${hour} and e.first_received_at <= ${at} and e.signature_status = 'unsigned') as unsigned,
        (select count(*) from webhook_events e where e.connection_id = c.id and not e.is_test
            and e.first_received_at > ${at} - ${hour} and e.first_received_at <= ${at}
            and e.first_received_at - e.expires_at > interval '24 hours') as late,
        (select count(*) from webhook_rejections r where r.connection_id = c.id
            and r.received_at > ${at} - ${hour} and r.received_at <= ${at} and r.status >= 500) as receiver_errors,
        s.th_bad_signatures, s.th_unsigned_events, s.th_late_events, s.th_receiver_errors
      from connections c
      left join alert_thresholds t on t.connection_id = c.id
      cross join lateral (select ${threshold("silence_hours", "silenceHours")} as silence_hours,
        ${threshold("bad_signatures", "badSignatures")} as th_bad_signatures, ${threshold("unsigned_events", "unsignedEvents")} as th_unsigned_events,
        ${threshold("late_events", "lateEvents")} as th_late_events, ${threshold("receiver_errors", "receiverErrors")} as th_receiver_errors) s`),
  );
  return rows.map((row) => ({
    connectionId: row.id as string,
    hasServerKey: Boolean(row.has_server_key),
    lastEventAt: date(row.last_event_at),
    trafficDays: Number(row.traffic_days),
    badSignatures: Number(row.bad_signatures),
    unsigned: Number(row.unsigned),
    late: Number(row.late),
    receiverErrors: Number(row.receiver_errors),
    thresholds: {
      silenceHours: Number(row.silence_hours),
      badSignatures: Number(row.th_bad_signatures),
      unsignedEvents: Number(row.th_unsigned_events),
      lateEvents: Number(row.th_late_events),
      receiverErrors: Number(row.th_receiver_errors),
    },
  }));
}

/** Destinations on, and paused, unable to sign, or failing for at least their connection's threshold. */
export async function measureDestinations(db: Executor, now: Date): Promise<FailingDestination[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const minutes = threshold("destination_failing_minutes", "destinationFailingMinutes");
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select f.id, f.connection_id, f.name, f.failing_since, f.paused_at, ${minutes} as threshold_minutes, f.signing_problem, f.tripped_at, f.probe_at
      from forward_destinations f left join alert_thresholds t on t.connection_id = f.connection_id
      where f.enabled and (f.paused_at is not null or f.signing_problem is not null or f.failing_since <= ${at} - make_interval(mins => ${minutes}))`),
  );
  return rows.map((row) => ({
    connectionId: row.connection_id as string,
    destinationId: row.id as string,
    name: row.name as string,
    failingSince: date(row.failing_since),
    pausedAt: date(row.paused_at),
    thresholdMinutes: Number(row.threshold_minutes),
    signingProblem: (row.signing_problem as string | null) ?? null,
    trippedAt: date(row.tripped_at),
    probeAt: date(row.probe_at),
  }));
}

const HOUR_MS = 3_600_000;

/** Which conditions hold, from the measures; each with the numbers its alert shows. */
export function firingConditions(
  connections: readonly ConnectionMeasures[],
  destinations: readonly FailingDestination[],
  now: Date,
): Firing[] {
  const firing: Firing[] = [];
  const fire = (connectionId: string, kind: AlertKind, measure: AlertMeasure, subject = "") =>
    firing.push({ connectionId, kind, subject, measure });
  for (const m of connections) {
    const t = m.thresholds;
    // Traffic on the days before means a last event exists; the silence is the time since it.
    const quietMs = m.lastEventAt ? now.getTime() - m.lastEventAt.getTime() : 0;
    if (m.trafficDays > 0 && quietMs >= t.silenceHours * HOUR_MS) {
      fire(m.connectionId, "silence", {
        value: Math.floor(quietMs / HOUR_MS),
        threshold: t.silenceHours,
        windowMinutes: null,
        lastEventAt: m.lastEventAt?.toISOString() ?? null,
      });
    }
    if (m.badSignatures >= t.badSignatures)
      fire(m.connectionId, "bad_signatures", {
        value: m.badSignatures,
        threshold: t.badSignatures,
        windowMinutes: BAD_SIGNATURE_WINDOW_MINUTES,
      });
    if (m.hasServerKey && m.unsigned >= t.unsignedEvents)
      fire(m.connectionId, "unsigned_events", {
        value: m.unsigned,
        threshold: t.unsignedEvents,
        windowMinutes: COUNT_WINDOW_MINUTES,
      });
    if (m.late >= t.lateEvents)
      fire(m.connectionId, "late_events", {
        value: m.late,
        threshold: t.lateEvents,
        windowMinutes: COUNT_WINDOW_MINUTES,
      });
    if (m.receiverErrors >= t.receiverErrors)
      fire(m.connectionId, "receiver_errors", {
        value: m.receiverErrors,
        threshold: t.receiverErrors,
        windowMinutes: COUNT_WINDOW_MINUTES,
      });
  }
  for (const d of destinations) {
    const minutes = d.failingSince ? Math.floor((now.getTime() - d.failingSince.getTime()) / 60_000) : 0;
    fire(
      d.connectionId,
      "destination_failing",
      {
        value: minutes,
        threshold: d.thresholdMinutes,
        windowMinutes: null,
        destinationName: d.name,
        paused: d.pausedAt !== null,
        failingSince: d.failingSince?.toISOString() ?? null,
        signingProblem: d.signingProblem,
        tripped: d.trippedAt ? { since: d.trippedAt.toISOString(), probeAt: d.probeAt?.toISOString() ?? null } : null,
      },
      d.destinationId,
    );
  }
  return firing;
}
