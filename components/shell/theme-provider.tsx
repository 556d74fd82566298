"use client";

import { ThemeProvider as NextThemesProvider } from "next-themes";

import { themeStorageKey } from "./theme-settings";

/**
 * Light, dark or the system's, as the `dark` class on <html>. next-themes renders an inline script that
 * sets the class before the first paint (no flash of the wrong theme); the site's CSP lets it run only
 * with the request's nonce, which the root layout reads from the proxy's x-nonce header.
 */
export function ThemeProvider({ nonce, children }: { nonce: string | undefined; children: React.ReactNode }) {
  return (
    <NextThemesProvider
      attribute="class"
      defaultTheme="system"
      enableSystem
      disableTransitionOnChange
      storageKey={themeStorageKey}
      nonce={nonce}
    >
      {children}
    </NextThemesProvider>
  );
}
