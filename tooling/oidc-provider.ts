import crypto from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";

import Provider, { interactionPolicy, type KoaContextWithOIDC } from "oidc-provider";

import { demoOidcUsers, type OidcUser } from "./oidc-users";

/**
 * A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1 for the demo and e2e: one confidential client
 * (code + PKCE), its development login form (any password) asked on every authorization, so you can sign in as someone
 * else. With `faults: true`, `POST /_faults {"hang": true|false}` makes it answer nothing, as a provider that is down.
 */
export type OidcProviderOptions = {
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  users: OidcUser[];
  faults?: boolean;
};

export type RunningOidcProvider = { issuer: string; close: () => Promise<void> };

const { Check, base } = interactionPolicy;

export async function startOidcProvider(options: OidcProviderOptions): Promise<RunningOidcProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const users = new Map(options.users.map((u) => [u.login, u]));
  const signingKey = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });

  const policy = base();
  // Without this the provider would remember the last person and sign them straight back in.
  policy
    .get("login")!
    .checks.add(
      new Check("every_time", "the local provider asks every time", (ctx) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: "local", use: "sig", alg: "RS256" }] },
    cookies: { keys: [crypto.randomBytes(32).toString("base64url")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    // The console reads the person from the ID token, so the scopes' claims go into it.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    interactions: { policy },
    async findAccount(_ctx, login) {
      const user = users.get(login);
      if (!user) return undefined;
      return {
        accountId: login,
        claims: () => ({
          sub: login,
          email: user.email,
          email_verified: user.emailVerified,
          name: user.name,
          groups: user.groups,
        }),
      };
    },
    // The console is the provider's own first-party client: no consent screen.
    async loadExistingGrant(ctx) {
      const existing = ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = `<!doctype html><title>Sign-in error</title><h1>Sign-in error</h1><p>${escapeHtml(out.error_description ?? out.error)}</p>`;
    },
  });
  if (options.faults) provider.use(faultInjection());

  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function faultInjection() {
  let hanging = false;
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.path === "/_faults" && ctx.method === "POST") {
      const body = JSON.parse((await readBody(ctx.req)) || "{}") as { hang?: unknown };
      hanging = body.hang === true;
      ctx.body = { hang: hanging };
      return;
    }
    // Never answered: the socket stays open until the client gives up or the provider closes.
    if (hanging) return new Promise<void>(() => {});
    await next();
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.on("data", (chunk: Buffer) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `npx tsx tooling/oidc-provider.ts --port 4020 --redirect-uri http://127.0.0.1:3000/api/auth/callback/oidc`
 * with OIDC_CLIENT_SECRET in the environment: the demo users, for a console run with `npm run dev`.
 */
async function main() {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
  };
  const clientSecret = process.env.OIDC_CLIENT_SECRET;
  if (!clientSecret) throw new Error("Set OIDC_CLIENT_SECRET to the client secret the console will use.");
  const provider = await startOidcProvider({
    port: Number(arg("port", "4020")),
    clientId: arg("client-id", "tenant-console"),
    clientSecret,
    redirectUri: arg("redirect-uri", "http://127.0.0.1:3000/api/auth/callback/oidc"),
    users: demoOidcUsers,
  });
  console.log(
    `OpenID Connect provider: ${provider.issuer} (logins: ${demoOidcUsers.map((u) => u.login).join(", ")}; any password)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
