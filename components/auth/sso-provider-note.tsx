import { Alert } from "@/components/ui/card";
import { ssoProviderReachable } from "@/lib/auth/sso";

/** Streamed after the rest of the page: a note when the identity provider does not answer (at most 3 s to find out). */
export async function SsoProviderNote({
  providerName,
  fresh,
  passwordSignIn,
}: {
  providerName: string;
  fresh: boolean;
  passwordSignIn: boolean;
}) {
  if (await ssoProviderReachable({ fresh })) return null;
  return (
    <div id="sso-provider-note">
      <Alert tone="warning">
        {providerName} is not answering right now, so single sign-on may fail. Try again in a few minutes
        {passwordSignIn ? ", or sign in with your email and password" : ""}.
      </Alert>
    </div>
  );
}
