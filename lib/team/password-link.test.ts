import { describe, expect, it } from "vitest";

import { verifyPassword } from "@/lib/auth/password";

import { linkNotUsable, PASSWORD_LINK_LIFETIME_MS, setPasswordWithLink } from "./password-link";
import { addTeamMember, createPasswordLink, setDisabled } from "./team";
import { actorFor, audits, insertUser, teamFixture, tokenOf, user } from "./test-helpers";

/** Set-password links (./password-link.ts): made by an admin, used once by the new user. */
teamFixture();

describe("set-password links", () => {
  async function invited() {
    const actor = await actorFor("ada@example.com");
    const result = await addTeamMember(actor, { email: "nia@example.com", name: "Nia", role: "support" });
    if (!result.ok) throw new Error(result.error);
    return { actor, id: result.id, token: tokenOf(result.link.url) };
  }
  const password = "a-long-enough-password";

  it("sets the password once, clears the link, ends other sessions and is audited as the user", async () => {
    const { id, token } = await invited();
    const versionBefore = (await user(id)).sessionVersion;
    expect(await setPasswordWithLink({ token, password, confirmation: password })).toEqual({ ok: true });
    const row = await user(id);
    expect(await verifyPassword(row.passwordHash!, password)).toBe(true);
    expect(row.passwordSetupTokenHash).toBeNull();
    expect(row.passwordSetupExpiresAt).toBeNull();
    expect(row.sessionVersion).toBe(versionBefore + 1);
    const [record] = await audits("user.password_set");
    expect(record).toMatchObject({ actorId: id, actorEmail: "nia@example.com", target: "nia@example.com" });
    expect(JSON.stringify(record)).not.toContain(password);

    expect(
      await setPasswordWithLink({ token, password: "another-long-password", confirmation: "another-long-password" }),
    ).toEqual({ ok: false, error: linkNotUsable });
    expect(await verifyPassword((await user(id)).passwordHash!, password)).toBe(true);
  });

  it("refuses an expired link, an unknown token, and two different passwords", async () => {
    const { id, token } = await invited();
    const later = new Date(Date.now() + PASSWORD_LINK_LIFETIME_MS + 1000);
    expect(await setPasswordWithLink({ token, password, confirmation: password }, later)).toEqual({
      ok: false,
      error: linkNotUsable,
    });
    const unknown = Buffer.alloc(32, 7).toString("base64url");
    expect(await setPasswordWithLink({ token: unknown, password, confirmation: password })).toEqual({
      ok: false,
      error: linkNotUsable,
    });
    expect(await setPasswordWithLink({ token, password, confirmation: `${password}!` })).toEqual({
      ok: false,
      error: "The two passwords are not the same.",
    });
    expect(await setPasswordWithLink({ token, password: "short", confirmation: "short" })).toEqual({
      ok: false,
      error: "Passwords have at least 12 characters.",
    });
    expect(await setPasswordWithLink({ token: "abc", password, confirmation: password })).toEqual({
      ok: false,
      error: "This link is incomplete.",
    });
    expect((await user(id)).passwordHash).toBeNull();
    expect(await audits("user.password_set")).toHaveLength(0);
  });

  it("two uses of one link at once: one sets the password, the other is refused", async () => {
    const { id, token } = await invited();
    const results = await Promise.all(
      ["first-long-password", "second-long-password"].map((p) =>
        setPasswordWithLink({ token, password: p, confirmation: p }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: linkNotUsable }]);
    expect(await audits("user.password_set")).toHaveLength(1);
    expect((await user(id)).passwordHash).not.toBeNull();
  });

  it("a new link replaces the earlier one and is audited; refused for a disabled or a single sign-on user", async () => {
    const { actor, id, token } = await invited();
    const again = await createPasswordLink(actor, { userId: id });
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    expect(await setPasswordWithLink({ token, password, confirmation: password })).toEqual({
      ok: false,
      error: linkNotUsable,
    });
    expect(await setPasswordWithLink({ token: tokenOf(again.link.url), password, confirmation: password })).toEqual({
      ok: true,
    });
    expect(await audits("user.password_link_created")).toMatchObject([
      { actorId: actor.id, target: "nia@example.com" },
    ]);

    const disabled = await insertUser({ email: "dee@example.com", name: "Dee", disabled: true });
    expect(await createPasswordLink(actor, { userId: disabled.id })).toEqual({
      ok: false,
      error: "Dee is disabled. Enable the account first.",
    });
    const sso = await insertUser({
      email: "sid@example.com",
      name: "Sid",
      passwordHash: null,
      oidcIssuer: "https://idp.example.com/realms/x",
      oidcSubject: "s1",
    });
    expect(await createPasswordLink(actor, { userId: sso.id })).toEqual({
      ok: false,
      error: "Sid signs in through single sign-on (idp.example.com), not with a password.",
    });
  });

  it("disabling a user voids their pending link", async () => {
    const { actor, id, token } = await invited();
    expect(await setDisabled(actor, { userId: id, disabled: true })).toEqual({ ok: true });
    expect(await setDisabled(actor, { userId: id, disabled: false })).toEqual({ ok: true });
    expect(await setPasswordWithLink({ token, password, confirmation: password })).toEqual({
      ok: false,
      error: linkNotUsable,
    });
  });
});
