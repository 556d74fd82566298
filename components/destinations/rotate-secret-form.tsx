"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/input";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { rotateDestinationSecretAction } from "@/lib/destinations/actions";
import { PREVIOUS_SECRET_CHOICES, PREVIOUS_SECRET_HOURS } from "@/lib/destinations/constants";

const periodLabel = (hours: number) =>
  hours === 0
    ? "Not at all: it stops now"
    : hours % 24 === 0
      ? `${hours / 24} day${hours === 24 ? "" : "s"}`
      : `${hours} hour${hours === 1 ? "" : "s"}`;

/**
 * The rotation dialog's content, loaded when first wanted (./rotate-secret.tsx): the period the previous secret
 * keeps signing, then the new secret, shown this once.
 */
export function RotateSecretForm({
  ids,
  name,
  onRotated,
  onClose,
}: {
  ids: { connectionId: string; destinationId: string };
  name: string;
  onRotated: () => void;
  onClose: () => void;
}) {
  const [hours, setHours] = useState<number>(PREVIOUS_SECRET_HOURS);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, run] = useSerialAction();
  const rotate = (event: React.FormEvent) => {
    event.preventDefault();
    run(async () => {
      const result = await callAction(() => rotateDestinationSecretAction({ ...ids, previousSecretHours: hours }));
      if (!result.ok) setError(result.error);
      else if (result.secret) {
        setSecret(result.secret);
        onRotated();
      }
    });
  };
  const id = `rotate-period-${ids.destinationId}`;
  if (secret)
    return (
      <SecretReveal
        name={name}
        secret={secret}
        rotated={false}
        testId="destination-secret"
        onDone={onClose}
        note={
          <>
            This is the only time the console shows {name}&rsquo;s new signing secret. Give it to the receiving
            application, which checks each forward&rsquo;s Standard Webhooks signature with it.{" "}
            {hours === 0
              ? "The previous secret no longer signs."
              : `The previous secret still signs beside it for ${periodLabel(hours)}, so the receiver can switch without missing an event.`}
          </>
        }
      />
    );
  return (
    <form onSubmit={rotate} className="space-y-4" aria-label={`Rotate the secret of ${name}`}>
      <Field
        id={id}
        label="Keep signing with the previous secret for"
        hint="Each forward carries a signature of both secrets until then; after it, only the new one verifies."
        error={error ?? undefined}
      >
        <Select
          id={id}
          value={hours}
          onChange={(e) => setHours(Number(e.target.value))}
          aria-describedby={`${id}-hint`}
        >
          {PREVIOUS_SECRET_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {periodLabel(choice)}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          Rotate secret
        </Button>
      </div>
    </form>
  );
}
