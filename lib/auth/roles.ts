/** Roles and what each may see. Client-safe: no server imports. */
export const roles = ["admin", "support"] as const;
export type Role = (typeof roles)[number];

/** Admin may do everything support may; support is the least-privileged, read-mostly role. */
export function hasRole(userRole: Role, needed: Role): boolean {
  return userRole === "admin" || userRole === needed;
}

export type NavItem = { href: string; label: string; role: Role };

export const navItems: readonly NavItem[] = [
  { href: "/", label: "Overview", role: "support" },
  { href: "/alerts", label: "Alerts", role: "support" },
  { href: "/connections", label: "Connections", role: "admin" },
  { href: "/data-points", label: "Data points", role: "support" },
  { href: "/email-otp", label: "Email OTP", role: "admin" },
  { href: "/webhooks", label: "Webhooks", role: "support" },
  { href: "/destinations", label: "Destinations", role: "support" },
  { href: "/users", label: "Users", role: "support" },
  { href: "/audit", label: "Audit", role: "admin" },
  { href: "/team", label: "Team", role: "admin" },
  { href: "/tokens", label: "API tokens", role: "admin" },
];

export function navItemsFor(role: Role): NavItem[] {
  return navItems.filter((item) => hasRole(role, item.role));
}

/** The role a path needs, from the navigation: the longest matching section prefix. */
export function roleForPath(pathname: string): Role {
  const match = navItems
    .filter((item) => item.href !== "/" && (pathname === item.href || pathname.startsWith(`${item.href}/`)))
    .sort((a, b) => b.href.length - a.href.length)[0];
  return match?.role ?? "support";
}
