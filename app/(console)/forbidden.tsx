import { ConsoleAccessDenied } from "@/components/shell/access-denied";

/** A console page's own refusal (requireRole, when the role changed since the proxy let the request through). */
export default function ConsoleForbidden() {
  return <ConsoleAccessDenied />;
}
