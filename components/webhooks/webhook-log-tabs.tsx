import Link from "next/link";
import { cn } from "@/components/ui/cn";

const tabs = [
  { id: "events", label: "Events", href: "/webhooks" },
  { id: "rejections", label: "Rejections", href: "/webhooks?tab=rejections" },
] as const;

export function WebhookLogTabs({ current }: { current: (typeof tabs)[number]["id"] }) {
  return (
    <nav aria-label="Webhook log views" className="mb-4 flex gap-1 border-b border-slate-200">
      {tabs.map((t) => (
        <Link
          key={t.id}
          href={t.href}
          aria-current={current === t.id ? "page" : undefined}
          className={cn(
            "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
            current === t.id ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
