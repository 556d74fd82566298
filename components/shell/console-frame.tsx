import { MobileNav } from "@/components/shell/mobile-nav";
import { NavLinks } from "@/components/shell/nav-links";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { ThemeSwitcher } from "@/components/shell/theme-switcher";
import { Badge } from "@/components/ui/badge";
import { Link } from "@/components/ui/link";
import type { SessionUser } from "@/lib/auth/guards";
import { navItemsFor } from "@/lib/auth/roles";

/**
 * The console's sidebar and header around a page: the console's layout draws it with the navigation's live counts
 * and the alert banner, and a refusal answered outside that layout (a 403 is decided before it streams) without.
 */
export function ConsoleFrame({
  user,
  switcher,
  badges = {},
  banner,
  children,
}: {
  user: SessionUser;
  switcher?: React.ReactNode;
  badges?: Partial<Record<string, React.ReactNode>>;
  banner?: React.ReactNode;
  children: React.ReactNode;
}) {
  const items = navItemsFor(user.role);
  return (
    <>
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
            <NavLinks items={items} badges={badges} />
          </nav>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 items-center justify-between gap-4 border-b border-slate-200 bg-white px-4 md:px-6 dark:border-slate-800 dark:bg-slate-900">
            <nav aria-label="Main (compact)" className="md:hidden">
              <MobileNav items={items} badges={badges}>
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
            {switcher}
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
            {banner}
            {children}
          </main>
        </div>
      </div>
    </>
  );
}
