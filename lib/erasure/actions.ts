"use server";

import { eraseConfirmedEndUserData, previewEndUserErasure } from "@/lib/erasure/erasure";
import type { ConfirmedErasureInput, EndUserErasureInput } from "@/lib/erasure/schemas";
import type { ErasurePreviewResult, ErasureResult } from "@/lib/erasure/types";
import { runAction } from "@/lib/server-action";

/** What erasing the user would remove: counted for the dialog before the admin confirms. */
export async function previewEndUserErasureAction(input: EndUserErasureInput): Promise<ErasurePreviewResult> {
  return runAction({ name: "previewEndUserErasureAction", role: "admin" }, () => previewEndUserErasure(input));
}

/** Revalidated after a failure too: one that ended mid-way (a lost connection) may have erased some of it. */
export async function eraseEndUserDataAction(input: ConfirmedErasureInput): Promise<ErasureResult> {
  return runAction(
    { name: "eraseEndUserDataAction", role: "admin", revalidate: ["/webhooks"], revalidateOnFailure: true },
    (user) => eraseConfirmedEndUserData(user, input),
  );
}
