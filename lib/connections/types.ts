import type { Region } from "@/lib/service/regions";

/** What pages may know of a connection: never a key, only each key's fingerprint. Client-safe. */
export type KeyFingerprint = { last4: string; setAt: string };
export type SecretKindName = "management" | "server" | "server_secondary";

export type ConnectionSummary = {
  id: string;
  name: string;
  region: Region;
  verifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  updatedBy: string | null;
  keys: Partial<Record<SecretKindName, KeyFingerprint>>;
};

export type ConnectionChoice = { id: string; name: string; region: Region };

/** What a create/update/delete answers; `field` and `suggestedRegion` let the form point at the problem. */
export type ConnectionMutationResult =
  | { ok: true; id: string; verified: boolean }
  | {
      ok: false;
      error: string;
      field?: "name" | "region" | "managementKey";
      suggestedRegion?: Region;
      /** The region could not be reached: the admin may save anyway, unverified. */
      canSaveUnverified?: boolean;
      /**
       * Another connection already holds this management key in this region (the same tenant): the admin may
       * confirm.
       */
      sameKeyAs?: { id: string; name: string };
    };
