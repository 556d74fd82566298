import { Suspense } from "react";

import { AlertBanner, OpenAlertCount } from "@/components/alerts/alert-banner";
import { OpenAlertsProvider } from "@/components/alerts/open-alerts";
import { ConnectionSwitcherSlot } from "@/components/connections/connection-switcher-slot";
import { MobileNav } from "@/components/shell/mobile-nav";
import { NavLinks } from "@/components/shell/nav-links";
import { Providers } from "@/components/shell/providers";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { ThemeSwitcher } from "@/components/shell/theme-switcher";
import { Badge } from "@/components/ui/badge";
import { Link } from "@/components/ui/link";
import { bannerAlert } from "@/lib/alerts/display";
import { requireUser } from "@/lib/auth/guards";
import { navItemsFor } from "@/lib/auth/roles";

import { readOpenAlerts } from "./open-alerts";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  // Not awaited: the banner and the navigation's count stream in after the page, never holding it (a
  // Suspense without a fallback shows nothing until then); a failure to read them shows nothing either.
  const openAlerts = readOpenAlerts().then((alerts) => alerts && alerts.map(bannerAlert));
  const badges = {
    "/alerts": (
      <Suspense fallback={null}>
        <OpenAlertCount />
      </Suspense>
    ),
  };
  return (
    // A server component renders once per request: this is the instant relative times are rendered against on both
    // sides.
    // eslint-disable-next-line react-hooks/purity
    <Providers serverNow={Date.now()}>
      <OpenAlertsProvider initial={openAlerts}>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900"
        >
          Skip to content
        </a>
        <div className="flex min-h-screen">
          <aside className="hidden w-56 shrink-0 border-r border-slate-200 bg-white md:block dark:border-slate-800 dark:bg-slate-900">
            <div className="flex h-14 items-center gap-2 px-4">
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src="/icon.svg" alt="" width={24} height={24} />
              <Link href="/" className="font-semibold tracking-tight">
                Tenant Console
              </Link>
            </div>
            <nav aria-label="Main" className="px-2 py-3">
              <NavLinks items={navItemsFor(user.role)} badges={badges} />
            </nav>
          </aside>
          <div className="flex min-w-0 flex-1 flex-col">
            <header className="flex h-14 items-center justify-between gap-4 border-b border-slate-200 bg-white px-4 md:px-6 dark:border-slate-800 dark:bg-slate-900">
              <nav aria-label="Main (compact)" className="md:hidden">
                <MobileNav items={navItemsFor(user.role)} badges={badges}>
                  {/* The header has no room for the theme, nor on a phone for who is signed in: the menu has them. */}
                  <div className="mt-2 border-t border-slate-200 pt-2 dark:border-slate-700">
                    <ThemeSwitcher labels />
                  </div>
                  <p className="mt-2 border-t border-slate-200 px-3 pt-2 text-xs text-slate-500 sm:hidden dark:border-slate-700 dark:text-slate-400">
                    Signed in as <span className="font-medium text-slate-900 dark:text-slate-100">{user.name}</span> (
                    {user.role})<span className="block truncate">{user.email}</span>
                  </p>
                </MobileNav>
              </nav>
              <ConnectionSwitcherSlot user={user} />
              <div className="ml-auto flex shrink-0 items-center gap-3">
                <div className="hidden text-right text-sm leading-tight sm:block">
                  <p
                    className="max-w-48 truncate font-medium text-slate-900 dark:text-slate-100"
                    title={`${user.email} (${user.role})`}
                    data-testid="current-user"
                  >
                    {user.name}
                  </p>
                  <p className="hidden max-w-48 truncate text-xs text-slate-500 lg:block dark:text-slate-400">
                    {user.email}
                  </p>
                </div>
                <span className="hidden lg:inline-flex">
                  <Badge tone={user.role === "admin" ? "info" : "neutral"}>{user.role}</Badge>
                </span>
                <ThemeSwitcher className="hidden md:block" />
                <SignOutButton />
              </div>
            </header>
            <main id="main" className="flex-1 px-4 py-6 md:px-8">
              <Suspense fallback={null}>
                <AlertBanner />
              </Suspense>
              {children}
            </main>
          </div>
        </div>
      </OpenAlertsProvider>
    </Providers>
  );
}
