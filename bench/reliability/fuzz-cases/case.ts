/** What a case of the plan is, and the limits of the contract it is written against. */
import type { Signer } from "./hmac";

export const MAX_BODY_BYTES = 262_144;
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type Conn = "signed" | "unsigned";
export type Tokens = { signed: string; unsigned: string };
export type PathSpec = { label: string; conn?: Conn; make: (tokens: Tokens) => string };

export type Expectation = {
  /** Acceptable statuses (more than one only where the contract leaves the order of two rules open). */
  status: number[];
  /** For a 400: a name errorDescription must contain. */
  field?: string;
};

export type FuzzCase = {
  index: number;
  kind: string;
  method: string;
  path: PathSpec;
  /** null: no Content-Type header. */
  contentType: string | null;
  body?: Buffer | (() => Buffer);
  /**
   * length: Content-Length; chunked: no length, several chunks; partial: declares `declaredLength`, sends a prefix and
   * waits.
   */
  transfer: "length" | "chunked" | "partial";
  declaredLength?: number;
  sign?: Signer;
  /** Seconds added to now for the signature timestamp. */
  skew?: number;
  extraHeaders?: [string, string][];
  expect: Expectation;
  /** Set when the request carries an event that is stored if answered 200. */
  event?: { key: string; conn: Conn; eventId: string };
  /** Index of the case that must be answered before this one is sent (deliveries of one event, in order). */
  after?: number;
};

export type Plan = { cases: FuzzCase[]; neverInLogs: string[] };

export type EventPlan = {
  key: string;
  conn: Conn;
  id: string;
  body: Buffer;
  makeConflict: () => Buffer;
  lastCase: number;
  reusable: boolean;
};

export type Identity = { userId: string; email: string; emailLocal: string; phone: string; phoneDigits: string };
