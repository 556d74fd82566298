"use client";

import { Monitor, Moon, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import { useId } from "react";

import { cn } from "@/components/ui/cn";
import { useHydrated } from "@/components/ui/use-hydrated";

import { themeChoices, type ThemeChoice } from "./theme-settings";

const options: Record<ThemeChoice, { label: string; Icon: typeof Sun }> = {
  light: { label: "Light", Icon: Sun },
  dark: { label: "Dark", Icon: Moon },
  system: { label: "System", Icon: Monitor },
};

/**
 * Light, Dark or System as native radio buttons in a fieldset, so Tab, the arrow keys and screen readers work as for
 * any radio group. `labels` shows the words beside the icons (the phone menu has room); in the header they are for
 * screen readers and the tooltip only.
 */
export function ThemeSwitcher({ labels = false, className }: { labels?: boolean; className?: string }) {
  const { theme, setTheme } = useTheme();
  // The stored choice is only known in the browser: no choice is shown until then (no hydration mismatch),
  // and none can be made (a click before would check a radio that hydration then unchecks).
  const hydrated = useHydrated();
  const name = useId();
  return (
    <fieldset disabled={!hydrated} className={cn("min-w-0", className)}>
      <legend className={labels ? "mb-1.5 px-3 text-xs font-medium text-slate-600 dark:text-slate-400" : "sr-only"}>
        Theme
      </legend>
      <div className="inline-flex rounded-md bg-slate-100 p-0.5 ring-1 ring-inset ring-slate-300 dark:bg-slate-800 dark:ring-slate-600">
        {themeChoices.map((choice) => {
          const { label, Icon } = options[choice];
          return (
            <label
              key={choice}
              title={labels ? undefined : `${label} theme`}
              className={cn(
                "inline-flex cursor-pointer items-center gap-1.5 rounded px-2 py-1 text-sm font-medium text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white has-checked:hover:text-white dark:has-checked:hover:text-slate-950",
                // The choice is a filled pill: 3:1 or more against the track in both themes.
                "has-checked:bg-indigo-600 has-checked:text-white has-checked:shadow-sm dark:has-checked:bg-indigo-400 dark:has-checked:text-slate-950",
                "has-focus-visible:outline-2 has-focus-visible:outline-offset-1 has-focus-visible:outline-indigo-600 dark:has-focus-visible:outline-indigo-400",
              )}
            >
              <input
                type="radio"
                name={name}
                value={choice}
                checked={hydrated && theme === choice}
                onChange={() => setTheme(choice)}
                className="sr-only"
              />
              <Icon aria-hidden="true" className="size-4" />
              <span className={labels ? undefined : "sr-only"}>{label}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
