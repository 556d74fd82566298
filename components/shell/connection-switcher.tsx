"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTransition } from "react";

import { Link } from "@/components/ui/link";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import { selectConnectionAction } from "@/lib/connections/actions";
import type { ConnectionChoice } from "@/lib/connections/types";
import { regionShortNames } from "@/lib/service/regions";
import { withoutLookupMarkers } from "@/lib/users/lookup-request";

/** The pages that can show every connection at once; the others show the selected one. */
const PAGES_OF_ALL = ["/webhooks", "/audit", "/alerts"];
/** "All connections", as the server action and the pages' links say it. */
const ALL = "all";
/** What a change of scope leaves out of the address: the connection it named, and a page or row of the old scope. */
const OF_THE_OLD_SCOPE = ["connectionId", "cursor", "event", "rejection"];

/**
 * The one connection context: the connection every page works on, or "All connections" on the pages that can show
 * all, kept in httpOnly cookies by the server action. A link naming a connection (`?connectionId=`) shows it here.
 */
export function ConnectionSwitcher({
  choices,
  selectedId,
  allChosen,
  canAdd,
}: {
  choices: ConnectionChoice[];
  selectedId: string | null;
  /** The switcher said "All connections" last. */
  allChosen: boolean;
  canAdd: boolean;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [pending, startTransition] = useTransition();
  const offersAll = PAGES_OF_ALL.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  const linked = offersAll ? params.get("connectionId") : null;
  const value =
    linked !== null && (linked === ALL || choices.some((c) => c.id === linked))
      ? linked
      : offersAll && allChosen
        ? ALL
        : (selectedId ?? "");
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
        value={value}
        disabled={pending}
        aria-busy={pending}
        onChange={(event) => {
          const id = event.target.value;
          startTransition(async () => {
            const result = await callAction(() => selectConnectionAction({ id }));
            if (!result.ok) toast.error(result.error);
            // A page asked to act once (the users page's lookup markers) must not act again in the new
            // connection: leave its address without them. A page of all connections follows the switcher:
            // what its address said of the old scope goes. The action's response shows the page in the new one.
            const here = `${window.location.pathname}${window.location.search}`;
            const cleaned = result.ok ? withoutLookupMarkers(here, offersAll ? OF_THE_OLD_SCOPE : undefined) : null;
            if (cleaned) router.replace(cleaned, { scroll: false });
          });
        }}
      >
        {offersAll ? <option value={ALL}>All connections</option> : null}
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({regionShortNames[c.region]})
          </option>
        ))}
      </select>
    </div>
  );
}
