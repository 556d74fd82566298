import { Skeleton } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Link } from "@/components/ui/link";

const tabs = [
  { id: "events", label: "Events", href: "/webhooks" },
  { id: "rejections", label: "Rejections", href: "/webhooks?tab=rejections" },
] as const;

const tabBar = "mb-4 flex gap-1 border-b border-slate-200 dark:border-slate-700";
const tabBox = "-mb-px border-b-2 px-3 py-2 text-sm font-medium";

export function WebhookLogTabs({ current }: { current: (typeof tabs)[number]["id"] }) {
  return (
    <nav aria-label="Webhook log views" className={tabBar}>
      {tabs.map((t) => (
        <Link
          key={t.id}
          href={t.href}
          aria-current={current === t.id ? "page" : undefined}
          className={cn(
            tabBox,
            current === t.id
              ? "border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300"
              : "border-transparent text-slate-600 dark:text-slate-300 hover:text-slate-900 dark:hover:text-white",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

/** The tabs' shape for loading.tsx, which cannot tell which tab the link opens. */
export function WebhookLogTabsSkeleton() {
  return (
    <div className={tabBar}>
      {tabs.map((t) => (
        <div key={t.id} className={cn(tabBox, "border-transparent")}>
          <Skeleton className="h-5 w-20" />
        </div>
      ))}
    </div>
  );
}
