"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { toast } from "@/components/ui/toast";

/**
 * Copies a text to the clipboard and says so (visibly and to screen readers through the toast). `iconOnly`: an icon
 * button (a table's cell), the label its name and tooltip.
 */
export function CopyButton({
  text,
  label = "Copy",
  onCopied,
  className,
  iconOnly = false,
  tabIndex,
}: {
  text: string;
  label?: string;
  /** Runs once the text is on the clipboard. */
  onCopied?: () => void;
  className?: string;
  iconOnly?: boolean;
  tabIndex?: number;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant={iconOnly ? "ghost" : "secondary"}
      size="sm"
      aria-label={iconOnly ? label : undefined}
      title={iconOnly ? label : undefined}
      tabIndex={tabIndex}
      className={cn(iconOnly && "px-1! py-0.5!", className)}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          onCopied?.();
          toast.success("Copied to the clipboard.");
          setTimeout(() => setCopied(false), 2000);
        } catch {
          toast.error("The browser refused to copy; select the text and copy it by hand.");
        }
      }}
    >
      {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
      {iconOnly ? null : label}
    </Button>
  );
}
