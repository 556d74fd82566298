import Link from "next/link";
import { ConnectionSwitcherSlot } from "@/components/connections/connection-switcher-slot";
import { NavLinks } from "@/components/shell/nav-links";
import { Providers } from "@/components/shell/providers";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { Badge } from "@/components/ui/badge";
import { requireUser } from "@/lib/auth/guards";
import { navItemsFor } from "@/lib/auth/roles";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <Providers>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <div className="flex min-h-screen">
        <aside className="hidden w-56 shrink-0 border-r border-slate-200 bg-white md:block">
          <div className="flex h-14 items-center gap-2 px-4">
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src="/icon.svg" alt="" width={24} height={24} />
            <Link href="/" className="font-semibold tracking-tight">
              Tenant Console
            </Link>
          </div>
          <nav aria-label="Main" className="px-2 py-3">
            <NavLinks items={navItemsFor(user.role)} />
          </nav>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 items-center justify-between gap-4 border-b border-slate-200 bg-white px-4 md:px-6">
            <nav aria-label="Main (compact)" className="md:hidden">
              <details>
                <summary className="cursor-pointer text-sm font-medium">Menu</summary>
                <div className="absolute z-20 mt-2 w-56 rounded-md bg-white p-2 shadow-lg ring-1 ring-slate-200">
                  <NavLinks items={navItemsFor(user.role)} />
                </div>
              </details>
            </nav>
            <ConnectionSwitcherSlot user={user} />
            <div className="flex-1" />
            <div className="flex items-center gap-3">
              <div className="text-right text-sm leading-tight">
                <p className="font-medium text-slate-900" data-testid="current-user">{user.name}</p>
                <p className="text-xs text-slate-500">{user.email}</p>
              </div>
              <Badge tone={user.role === "admin" ? "info" : "neutral"}>{user.role}</Badge>
              <SignOutButton />
            </div>
          </header>
          <main id="main" className="flex-1 px-4 py-6 md:px-8">
            {children}
          </main>
        </div>
      </div>
    </Providers>
  );
}
