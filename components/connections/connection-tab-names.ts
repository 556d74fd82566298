/** The connection page's tabs, in order; the first is the one a link without `?tab=` opens. */
export const CONNECTION_TABS = ["settings", "webhooks", "destinations"] as const;
export type ConnectionTab = (typeof CONNECTION_TABS)[number];

/** The tab a link's `?tab=` names, or the first for anything else. */
export function connectionTabOf(value: string | string[] | undefined): ConnectionTab {
  return CONNECTION_TABS.find((tab) => tab === value) ?? CONNECTION_TABS[0];
}
