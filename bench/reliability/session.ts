/** Signing in over HTTP with next-auth's credentials provider, keeping its cookies. */
export type Session = { cookie: string; email: string };

export async function signIn(baseUrl: string, user: { email: string; password: string }): Promise<Session> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(";")[0]!;
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({
      csrfToken,
      email: user.email,
      password: user.password,
      callbackUrl: `${baseUrl}/`,
      json: "true",
    }),
  });
  keep(response);
  if (![...jar.keys()].some((k) => k.endsWith("session-token"))) {
    throw new Error(`sign-in of ${user.email} failed: ${response.status} ${(await response.text()).slice(0, 300)}`);
  }
  return { cookie: cookie(), email: user.email };
}

export type Fetched = { status: number; body: string; ms: number; error?: string };

/** GETs a page or API as the session and reads the whole (streamed) body, giving up after `timeoutMs`. */
export async function fetchAs(
  session: Session,
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<Fetched> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      headers: { cookie: session.cookie, ...headers },
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    return { status: response.status, body, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: "", ms: performance.now() - started, error: (error as Error).message };
  }
}
