/**
 * The console's themes and where the reader's choice is kept (localStorage, under this key). Plain
 * constants, client-safe, shared by the provider, the header's control and the e2e specs.
 */
export const themeStorageKey = "tenant-console-theme";

export const themeChoices = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof themeChoices)[number];
