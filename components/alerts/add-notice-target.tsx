"use client";

import { Plus } from "lucide-react";

import { AddDialog, useAddDialog } from "@/components/ui/add-dialog";
import { NameAndUrlFields } from "@/components/ui/name-url-fields";
import { newSecretShown } from "@/components/ui/secret-reveal";
import { toast } from "@/components/ui/toast";
import { addNoticeTargetAction } from "@/lib/alerts/actions";
import { MAX_NOTICE_TARGETS } from "@/lib/alerts/constants";
import type { AddNoticeTargetInput } from "@/lib/alerts/schemas";

const blank: AddNoticeTargetInput = { name: "", url: "" };

/**
 * "Add a notice target": a webhook URL every alert's notices are posted to, checked in the browser with the
 * server's schema and on the server against the outbound policy; its signing secret is shown once.
 */
export function AddNoticeTarget({ full }: { full: boolean }) {
  const dialog = useAddDialog({
    schema: () => import("@/lib/alerts/schemas").then((m) => m.addNoticeTargetSchema),
    blank,
    submit: addNoticeTargetAction,
    added: (result) => {
      toast.success(`Added ${result.name}: the next notices are posted to it.`);
      return { name: result.name, secret: result.secret };
    },
  });
  return (
    <AddDialog
      dialog={dialog}
      trigger={{
        label: "Add a notice target",
        icon: Plus,
        disabled: full,
        title: full ? `At most ${MAX_NOTICE_TARGETS} targets: remove one first.` : undefined,
      }}
      title="Add a notice target"
      shown={newSecretShown("notice-target-secret", dialog.close)}
      submitLabel="Add target"
    >
      <NameAndUrlFields
        id="notice-target"
        form={dialog.form}
        placeholders={{ name: "Ops chat", url: "https://hooks.slack.com/services/…" }}
        urlHint="A Slack or Mattermost incoming-webhook URL works as is. It starts with https:// and reaches a public address; an internal host only if the console's configuration allows it (see Forwarding in docs/configuration.md)."
      />
    </AddDialog>
  );
}
