"use client";

import { Plus } from "lucide-react";

import { AddDialog, useAddDialog } from "@/components/ui/add-dialog";
import { onDemand } from "@/components/ui/on-demand";
import { newSecretShown } from "@/components/ui/secret-reveal";
import { toast } from "@/components/ui/toast";
import { createDestinationAction } from "@/lib/destinations/actions";

import type { DestinationFormValues as FormValues } from "./destination-fields";

// The form's fields load when an admin first reaches for the button (hover, focus, click): the
// connection page's first load does not carry them.
const Fields = onDemand(() => import("./destination-fields").then((m) => m.DestinationFields));

/** "Add a destination": where this connection's events go next, how they are signed, and which ones. */
export function AddDestination({ connectionId, hasServerKey }: { connectionId: string; hasServerKey: boolean }) {
  const blank: FormValues = {
    name: "",
    url: "",
    signing: hasServerKey ? "service" : "standard_webhooks",
    eventTypes: [],
    verificationMethods: [],
    includeUnverified: false,
    maxPerSecond: "",
  };
  const dialog = useAddDialog({
    schema: () =>
      import("@/lib/destinations/schemas").then((m) => m.createDestinationSchema.omit({ connectionId: true })),
    blank,
    // The box is shown for Standard Webhooks only: ticked, then switched to the service, it does not count.
    submit: (values: FormValues) =>
      createDestinationAction({
        ...values,
        includeUnverified: values.signing === "standard_webhooks" && values.includeUnverified === true,
        connectionId,
      }),
    added: (result) => {
      toast.success(`Added ${result.name}: new events are forwarded to it.`);
      return result.secret ? { name: result.name, secret: result.secret } : null;
    },
  });

  return (
    <AddDialog
      dialog={dialog}
      trigger={{ label: "Add a destination", icon: Plus, preload: Fields.preload }}
      title="Add a destination"
      shown={newSecretShown("destination-secret", dialog.close)}
      submitLabel="Add destination"
    >
      <Fields.Component form={dialog.form} hasServerKey={hasServerKey} />
    </AddDialog>
  );
}
