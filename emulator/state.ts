import { randomUUID } from "node:crypto";

import type { VirtualClock } from "./clock";
import type { AuthenticatorInput, CustomDataPoint, ParsedSeed, Region, TenantSeed, VerificationMethod } from "./seed";

export interface StoredAuthenticator {
  userAuthenticatorId: string;
  verificationMethod: VerificationMethod;
  createdAt: string;
  /** null: no lifetime, never expires. */
  expiresAtMs: number | null;
  verifiedAt?: string;
  lastVerifiedAt?: string;
  isDefault?: boolean;
  deviceName?: string;
  devicePlatform?: string;
  email?: string;
  phoneNumber?: string;
  credentialId?: string;
  aaguid?: string;
  credentialName?: string;
}

export interface EmailOtpConfiguration {
  authenticatorId: string;
  emailProvider: string;
  isActive: boolean;
  numberOfAttemptsAllowed: number;
  otpLifetimeInSeconds: number;
}

export interface TenantState {
  id: string;
  name: string;
  region: Region;
  managementKey: string;
  serverSecretKeys: string[];
  webhookUrl: string | null;
  webhookDelaySeconds: number;
  emailOtp: EmailOtpConfiguration | null;
  customDataPoints: Map<string, CustomDataPoint>;
  /** userId → authenticators, possibly including expired ones not yet swept. */
  users: Map<string, StoredAuthenticator[]>;
}

export interface ExpiredAuthenticator {
  tenant: TenantState;
  userId: string;
  authenticator: StoredAuthenticator;
}

function isCurrent(authenticator: StoredAuthenticator, nowMs: number): boolean {
  return authenticator.expiresAtMs === null || authenticator.expiresAtMs > nowMs;
}

/** `lifetimeSeconds` counts from `lifetimeStartMs` (emulator start for seeds, now for the control API). */
function toStoredAuthenticator(input: AuthenticatorInput, lifetimeStartMs: number): StoredAuthenticator {
  const { userAuthenticatorId, createdAt, expiresAt, lifetimeSeconds, ...optional } = input;
  let expiresAtMs: number | null = null;
  if (expiresAt) expiresAtMs = Date.parse(expiresAt);
  else if (lifetimeSeconds !== undefined) expiresAtMs = lifetimeStartMs + lifetimeSeconds * 1000;
  return {
    ...optional,
    userAuthenticatorId: userAuthenticatorId ?? randomUUID(),
    createdAt: new Date(createdAt ? Date.parse(createdAt) : lifetimeStartMs).toISOString(),
    expiresAtMs,
  };
}

function toTenantState(seed: TenantSeed, startMs: number): TenantState {
  const users = new Map<string, StoredAuthenticator[]>();
  for (const user of seed.users) {
    users.set(
      user.userId,
      user.authenticators.map((a) => toStoredAuthenticator(a, startMs)),
    );
  }
  return {
    id: seed.id,
    name: seed.name,
    region: seed.region,
    managementKey: seed.managementKey,
    serverSecretKeys: [...seed.serverSecretKeys],
    webhookUrl: seed.webhookUrl,
    webhookDelaySeconds: seed.webhookDelaySeconds,
    emailOtp: seed.emailOtp
      ? { ...seed.emailOtp, authenticatorId: seed.emailOtp.authenticatorId ?? randomUUID() }
      : null,
    customDataPoints: new Map(seed.customDataPoints.map((point) => [point.id, { ...point }])),
    users,
  };
}

/** Tenants, users and authenticators in memory. Every read hides authenticators past their expiry. */
export class ServiceState {
  readonly tenants: TenantState[];

  constructor(
    seed: ParsedSeed,
    private readonly clock: VirtualClock,
  ) {
    const startMs = clock.now();
    this.tenants = seed.tenants.map((tenant) => toTenantState(tenant, startMs));
  }

  tenantById(id: string): TenantState | undefined {
    return this.tenants.find((tenant) => tenant.id === id);
  }

  tenantByManagementKey(region: Region, key: string): TenantState | undefined {
    return this.tenants.find((tenant) => tenant.region === region && tenant.managementKey === key);
  }

  tenantByServerKey(region: Region, key: string): TenantState | undefined {
    return this.tenants.find((tenant) => tenant.region === region && tenant.serverSecretKeys.includes(key));
  }

  currentAuthenticators(tenant: TenantState, userId: string): StoredAuthenticator[] {
    const nowMs = this.clock.now();
    return (tenant.users.get(userId) ?? []).filter((authenticator) => isCurrent(authenticator, nowMs));
  }

  addAuthenticator(tenant: TenantState, userId: string, input: AuthenticatorInput): StoredAuthenticator {
    const authenticator = toStoredAuthenticator(input, this.clock.now());
    const list = tenant.users.get(userId) ?? [];
    list.push(authenticator);
    tenant.users.set(userId, list);
    return authenticator;
  }

  /** Removes every authenticator past its expiry and returns each one exactly once. */
  removeExpiredAuthenticators(): ExpiredAuthenticator[] {
    const nowMs = this.clock.now();
    const expired: ExpiredAuthenticator[] = [];
    for (const tenant of this.tenants) {
      for (const [userId, authenticators] of tenant.users) {
        const kept = authenticators.filter((authenticator) => {
          if (isCurrent(authenticator, nowMs)) return true;
          expired.push({ tenant, userId, authenticator });
          return false;
        });
        tenant.users.set(userId, kept);
      }
    }
    return expired;
  }

  /**
   * Deletes the configuration and the current EMAIL_OTP credentials stored under it; false if there was
   * none. Credentials already past their expiry stay for the sweep, which sends their authenticator.expired.
   */
  deleteEmailOtpConfiguration(tenant: TenantState): boolean {
    if (!tenant.emailOtp) return false;
    tenant.emailOtp = null;
    const nowMs = this.clock.now();
    for (const [userId, authenticators] of tenant.users) {
      tenant.users.set(
        userId,
        authenticators.filter((a) => a.verificationMethod !== "EMAIL_OTP" || !isCurrent(a, nowMs)),
      );
    }
    return true;
  }

  countAuthenticators(tenant: TenantState): number {
    let count = 0;
    for (const userId of tenant.users.keys()) count += this.currentAuthenticators(tenant, userId).length;
    return count;
  }
}
