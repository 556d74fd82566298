"use client";

import { useId, useState } from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { useNow } from "@/components/ui/now";
import { Time } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { acknowledgeAlertAction, muteAlertAction, unmuteAlertAction } from "@/lib/alerts/actions";
import { MUTE_HOURS } from "@/lib/alerts/constants";
import type { AlertSummary } from "@/lib/alerts/types";
import { callAction, type ActionResult } from "@/lib/call-action";

import { displayState, isMuted, muteLabel, STATE_BADGES } from "./alert-words";

/** The alert's state as a badge; a mute says when it ends. Client-side: whether a mute still lasts depends on now. */
export function AlertStateBadge({ alert }: { alert: AlertSummary }) {
  const now = useNow() ?? 0;
  const state = displayState(alert, now);
  const { tone, label } = STATE_BADGES[state];
  return (
    <span data-testid="alert-state" className="shrink-0">
      <Badge tone={tone} className="whitespace-nowrap">
        {label}
        {state === "muted" ? (
          <>
            , ends&nbsp;
            <Time iso={alert.mutedUntil} />
          </>
        ) : null}
      </Badge>
    </span>
  );
}

/** An admin's buttons on an open alert: acknowledge it, mute it for one of MUTE_HOURS, or lift the mute. */
export function AlertButtons({ alert, name }: { alert: AlertSummary; name: string }) {
  const now = useNow() ?? 0;
  const [pending, run] = useSerialAction();
  const [hours, setHours] = useState<number>(MUTE_HOURS[0]);
  const muteId = useId();
  if (alert.state !== "open") return null;
  const ids = { alertId: alert.id };
  const change = (work: () => Promise<ActionResult>, done: string) =>
    run(async () => {
      const result = await callAction(work);
      if (result.ok) toast.success(done);
      else toast.error(result.error);
    });
  return (
    <div role="group" aria-label={`Act on ${name}`} className="flex flex-wrap items-center gap-2">
      {alert.acknowledgedAt ? null : (
        <Button
          size="sm"
          disabled={pending}
          onClick={() =>
            change(() => acknowledgeAlertAction(ids), `Acknowledged ${name}: no reminders while it stays open.`)
          }
        >
          Acknowledge
        </Button>
      )}
      {isMuted(alert, now) ? (
        <Button
          size="sm"
          variant="secondary"
          disabled={pending}
          onClick={() => change(() => unmuteAlertAction(ids), `Unmuted ${name}: its notices and the banner are back.`)}
        >
          Unmute
        </Button>
      ) : (
        <span className="flex items-center gap-1">
          <label htmlFor={muteId} className="text-sm text-slate-700 dark:text-slate-300">
            Mute for
          </label>
          <Select
            id={muteId}
            value={hours}
            onChange={(e) => setHours(Number(e.target.value))}
            disabled={pending}
            className="w-auto! py-1.5!"
          >
            {MUTE_HOURS.map((h) => (
              <option key={h} value={h}>
                {muteLabel(h)}
              </option>
            ))}
          </Select>
          <Button
            size="sm"
            variant="secondary"
            disabled={pending}
            onClick={() =>
              change(
                () => muteAlertAction({ ...ids, hours }),
                `Muted ${name} for ${muteLabel(hours)}: no notices and no banner until then.`,
              )
            }
          >
            Mute
          </Button>
        </span>
      )}
    </div>
  );
}
