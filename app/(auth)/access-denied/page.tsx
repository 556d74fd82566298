import type { Metadata } from "next";
import { forbidden } from "next/navigation";

export const metadata: Metadata = { title: "No access" };

/**
 * Where the proxy sends a signed-in user who lacks the role for a section. It renders this segment's forbidden.tsx
 * (the console's frame around the refusal) with status 403 before anything streams, which a page inside the
 * console's layout, behind its loading state, can no longer do.
 */
export default function AccessDeniedPage() {
  forbidden();
}
