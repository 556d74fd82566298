import { forbidden } from "next/navigation";

/**
 * Where the proxy sends a signed-in user who lacks the role for a section. It renders app/forbidden.tsx
 * with status 403 before anything streams, which a page deep in the shell can no longer do.
 */
export default function AccessDeniedPage() {
  forbidden();
}
