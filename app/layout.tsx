import type { Metadata } from "next";
import { headers } from "next/headers";

import { ThemeProvider } from "@/components/shell/theme-provider";
import { ZoneCookie } from "@/components/shell/zone-cookie";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Tenant Console", template: "%s · Tenant Console" },
  description: "Administer your authentication tenant: connections, data points, email OTP and webhooks.",
  robots: { index: false, follow: false },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Reading the request makes every page dynamic, so each gets the proxy's CSP nonce (the theme's
  // inline script needs it to run).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme script sets <html>'s class and color-scheme before React hydrates: not a mismatch.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen">
        <ThemeProvider nonce={nonce}>{children}</ThemeProvider>
        <ZoneCookie />
      </body>
    </html>
  );
}
