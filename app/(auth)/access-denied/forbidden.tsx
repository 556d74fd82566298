import { FramedAccessDenied } from "@/components/shell/framed-access-denied";

/**
 * The refusal this segment's page answers, in the console's frame. Here, not in app/forbidden.tsx: a root boundary's
 * client code is loaded on every route, and the frame's would weigh on each.
 */
export default function AccessDeniedForbidden() {
  return <FramedAccessDenied />;
}
