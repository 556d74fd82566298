import type { Metadata } from "next";

import { AuthCard } from "@/components/auth/auth-card";
import { SetPasswordForm } from "@/components/team/set-password-form";

export const metadata: Metadata = { title: "Set your password" };

/**
 * Where a set-password link leads (`/set-password#<token>`): public; the token reaches the server only in the form's
 * request.
 */
export default function SetPasswordPage() {
  return (
    <AuthCard title="Set your password" description="For your Tenant Console account. The link works once.">
      <SetPasswordForm />
    </AuthCard>
  );
}
