/** The people of the local OpenID Connect provider (tooling/oidc-provider.ts) for `npm run demo`. */
export type OidcUser = {
  /** What to type in the provider's login form (any password); also the subject of the ID token. */
  login: string;
  email: string;
  emailVerified: boolean;
  name: string;
  groups: string[];
};

export const demoOidcGroups = { admin: "console-admins", support: "console-support" } as const;

export const demoOidcUsers: OidcUser[] = [
  {
    login: "ada",
    email: "ada@sso.demo.test",
    emailVerified: true,
    name: "Ada Lovelace",
    groups: [demoOidcGroups.admin, "staff"],
  },
  {
    login: "sam",
    email: "sam@sso.demo.test",
    emailVerified: true,
    name: "Sam Okafor",
    groups: [demoOidcGroups.support, "staff"],
  },
  { login: "nora", email: "nora@sso.demo.test", emailVerified: true, name: "Nora Nogroup", groups: ["staff"] },
  {
    login: "uma",
    email: "uma@sso.demo.test",
    emailVerified: false,
    name: "Uma Unverified",
    groups: [demoOidcGroups.admin],
  },
];
