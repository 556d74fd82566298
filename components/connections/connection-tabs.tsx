"use client";

import { useEffect, useId, useRef, useState } from "react";

import { cn } from "@/components/ui/cn";

import { CONNECTION_TABS, type ConnectionTab } from "./connection-tab-names";

const labels: Record<ConnectionTab, string> = {
  settings: "Settings",
  webhooks: "Webhooks",
  destinations: "Destinations",
};

/** The tab whose panel holds the element a link's fragment names (`#serverKey`, `#destinations-heading`). */
function tabOfFragment(panelIds: Record<ConnectionTab, string>): ConnectionTab | undefined {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const panel = id ? document.getElementById(id)?.closest("[role=tabpanel]") : null;
  return CONNECTION_TABS.find((tab) => panel?.id === panelIds[tab]);
}

/**
 * The connection page's sections as tabs (the WAI-ARIA pattern: arrow keys, Home and End move between them). Every
 * panel is rendered, the others hidden; the chosen tab is kept in the link (`?tab=`) so a reload or a shared link
 * opens it, and a fragment inside another panel opens that one.
 */
export function ConnectionTabs({
  initial,
  panels,
}: {
  initial: ConnectionTab;
  panels: Record<ConnectionTab, React.ReactNode>;
}) {
  const [selected, setSelected] = useState(initial);
  const base = useId();
  const tabRefs = useRef<Partial<Record<ConnectionTab, HTMLButtonElement | null>>>({});
  const ids = (tab: ConnectionTab) => ({ tab: `${base}-tab-${tab}`, panel: `${base}-panel-${tab}` });
  const panelIds = Object.fromEntries(CONNECTION_TABS.map((tab) => [tab, ids(tab).panel])) as Record<
    ConnectionTab,
    string
  >;

  useEffect(() => {
    const follow = () => {
      const tab = tabOfFragment(panelIds);
      if (!tab) return;
      setSelected(tab);
      // Once shown, the target can be scrolled to.
      requestAnimationFrame(() => document.getElementById(window.location.hash.slice(1))?.scrollIntoView());
    };
    follow();
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
    // The ids are stable for the component's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const choose = (tab: ConnectionTab, focus = false) => {
    setSelected(tab);
    const url = new URL(window.location.href);
    if (tab === CONNECTION_TABS[0]) url.searchParams.delete("tab");
    else url.searchParams.set("tab", tab);
    url.hash = "";
    window.history.replaceState(window.history.state, "", url);
    if (focus) tabRefs.current[tab]?.focus();
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const at = CONNECTION_TABS.indexOf(selected);
    const last = CONNECTION_TABS.length - 1;
    const to = { ArrowRight: at === last ? 0 : at + 1, ArrowLeft: at === 0 ? last : at - 1, Home: 0, End: last }[
      event.key
    ];
    if (to === undefined) return;
    event.preventDefault();
    choose(CONNECTION_TABS[to]!, true);
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label="Connection sections"
        className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
        onKeyDown={onKeyDown}
      >
        {CONNECTION_TABS.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              tabRefs.current[tab] = element;
            }}
            type="button"
            role="tab"
            id={ids(tab).tab}
            aria-controls={ids(tab).panel}
            aria-selected={tab === selected}
            tabIndex={tab === selected ? 0 : -1}
            onClick={() => choose(tab)}
            className={cn(
              "-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600",
              tab === selected
                ? "border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300"
                : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-300 dark:hover:border-slate-600 dark:hover:text-slate-100",
            )}
          >
            {labels[tab]}
          </button>
        ))}
      </div>
      {CONNECTION_TABS.map((tab) => (
        <div
          key={tab}
          role="tabpanel"
          id={ids(tab).panel}
          aria-labelledby={ids(tab).tab}
          hidden={tab !== selected}
          // The WAI-ARIA pattern: the panel is reachable with Tab even when it has no control of its own first.
          tabIndex={0}
          className="focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600"
        >
          {panels[tab]}
        </div>
      ))}
    </div>
  );
}
