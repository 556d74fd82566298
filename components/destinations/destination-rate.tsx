"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldControlProps, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { setDestinationRateAction } from "@/lib/destinations/actions";
import { MAX_PER_SECOND_LIMIT } from "@/lib/destinations/constants";

/** "Change cap": a destination's maximum deliveries per second, set or cleared (empty) by an admin. */
export function DestinationRate({
  ids,
  name,
  maxPerSecond,
  disabled,
}: {
  ids: { connectionId: string; destinationId: string };
  name: string;
  maxPerSecond: number | null;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, run] = useSerialAction();
  const show = () => {
    setValue(maxPerSecond === null ? "" : String(maxPerSecond));
    setError(null);
    setOpen(true);
  };
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    run(async () => {
      const result = await callAction(() => setDestinationRateAction({ ...ids, maxPerSecond: value }));
      if (!result.ok) {
        setError(result.error);
        return;
      }
      toast.success(
        value.trim() === "" ? `${name} has no cap now.` : `${name}: at most ${value.trim()} deliveries per second.`,
      );
      setOpen(false);
    });
  };
  return (
    <>
      <Button size="sm" variant="secondary" disabled={disabled} onClick={show}>
        Change cap
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Delivery cap of ${name}`}>
        <form onSubmit={save} noValidate className="space-y-4" aria-label={`Delivery cap of ${name}`}>
          <Field
            id="destination-rate-change"
            label="Maximum deliveries per second"
            error={error ?? undefined}
            hint={`1 to ${MAX_PER_SECOND_LIMIT}; empty: no cap. Live forwards, retries and replays all keep to it.`}
          >
            <Input
              {...fieldControlProps("destination-rate-change", error ?? undefined, true)}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_PER_SECOND_LIMIT}
              step={1}
              autoFocus
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </Field>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              Save cap
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
