"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";

import { Link } from "@/components/ui/link";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import { selectConnectionAction } from "@/lib/connections/actions";
import type { ConnectionChoice } from "@/lib/connections/types";
import { regionShortNames } from "@/lib/service/regions";
import { withoutLookupMarkers } from "@/lib/users/lookup-request";

/** The connection every feature page works on, kept in an httpOnly cookie by the server action. */
export function ConnectionSwitcher({
  choices,
  selectedId,
  canAdd,
}: {
  choices: ConnectionChoice[];
  selectedId: string | null;
  canAdd: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  if (choices.length === 0) {
    return canAdd ? (
      <Link href="/connections/new" className="text-sm font-medium text-indigo-700 underline dark:text-indigo-300">
        Add a connection
      </Link>
    ) : (
      <span className="text-sm text-slate-500 dark:text-slate-400">No connections yet</span>
    );
  }
  return (
    <div className="flex min-w-0 items-center gap-2">
      {/* On a phone the select alone fits the header; the label stays for screen readers. */}
      <label
        htmlFor="connection-switcher"
        className="sr-only text-sm font-medium text-slate-700 sm:not-sr-only dark:text-slate-300"
      >
        Connection
      </label>
      <select
        id="connection-switcher"
        className="min-w-0 max-w-full rounded-md border-0 bg-white py-1.5 pl-2 pr-8 text-sm ring-1 ring-inset ring-slate-500 focus:ring-2 focus:ring-indigo-600 dark:bg-slate-950 dark:text-slate-100 dark:focus:ring-indigo-400"
        value={selectedId ?? ""}
        disabled={pending}
        aria-busy={pending}
        onChange={(event) => {
          const id = event.target.value;
          startTransition(async () => {
            const result = await callAction(() => selectConnectionAction({ id }));
            if (!result.ok) toast.error(result.error);
            // A page asked to act once (the users page's lookup markers) must not act again in the new
            // connection: leave its address without them. The action's response shows the page in the new one.
            const here = `${window.location.pathname}${window.location.search}`;
            const cleaned = result.ok ? withoutLookupMarkers(here) : null;
            if (cleaned) router.replace(cleaned, { scroll: false });
          });
        }}
      >
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({regionShortNames[c.region]})
          </option>
        ))}
      </select>
    </div>
  );
}
