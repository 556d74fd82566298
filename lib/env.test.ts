import { describe, expect, it } from "vitest";

import { logLevel, parseEnv } from "./env";

const valid = {
  NEXTAUTH_SECRET: "x".repeat(32),
  NEXTAUTH_URL: "http://127.0.0.1:3000",
  CONSOLE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
};

describe("parseEnv", () => {
  it("accepts a minimal environment and fills defaults", () => {
    const e = parseEnv(valid);
    expect(e.CONSOLE_DATA_DIR).toBe(".data");
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.CONSOLE_WEBHOOK_RETENTION_DAYS).toBe(90);
    expect(e.CONSOLE_PREVIOUS_ENCRYPTION_KEYS).toEqual([]);
    expect(e.CONSOLE_TRUSTED_PROXY_HOPS).toBe(0);
    expect(e.CONSOLE_FORWARD_ALLOWED_HOSTS).toEqual([]);
  });

  it("names the missing variable", () => {
    expect(() => parseEnv({ ...valid, NEXTAUTH_SECRET: undefined })).toThrow(/NEXTAUTH_SECRET/);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ ...valid, DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("rejects an encryption key of the wrong length without echoing it", () => {
    const bad = Buffer.alloc(16, 1).toString("base64");
    let message = "";
    try {
      parseEnv({ ...valid, CONSOLE_ENCRYPTION_KEY: bad });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/CONSOLE_ENCRYPTION_KEY: must be 32 bytes/);
    expect(message).not.toContain(bad);
  });

  it("rejects a non-postgres DATABASE_URL and a bad region override", () => {
    expect(() => parseEnv({ ...valid, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ ...valid, SERVICE_BASE_URL_EU: "not a url" })).toThrow(/SERVICE_BASE_URL_EU/);
  });

  it("requires the bootstrap admin email and password together", () => {
    expect(() => parseEnv({ ...valid, CONSOLE_BOOTSTRAP_ADMIN_EMAIL: "a@b.co" })).toThrow(
      /CONSOLE_BOOTSTRAP_ADMIN_PASSWORD/,
    );
    const e = parseEnv({
      ...valid,
      CONSOLE_BOOTSTRAP_ADMIN_EMAIL: "a@b.co",
      CONSOLE_BOOTSTRAP_ADMIN_PASSWORD: "long-enough-pass",
    });
    expect(e.CONSOLE_BOOTSTRAP_ADMIN_EMAIL).toBe("a@b.co");
  });

  it("evaluates alerts every 2 to 3600 s, every minute unless told", () => {
    expect(parseEnv(valid).CONSOLE_ALERT_EVALUATE_SECONDS).toBe(60);
    expect(parseEnv({ ...valid, CONSOLE_ALERT_EVALUATE_SECONDS: "2" }).CONSOLE_ALERT_EVALUATE_SECONDS).toBe(2);
    expect(() => parseEnv({ ...valid, CONSOLE_ALERT_EVALUATE_SECONDS: "1" })).toThrow(
      /CONSOLE_ALERT_EVALUATE_SECONDS: must be at least 2/,
    );
    expect(() => parseEnv({ ...valid, CONSOLE_ALERT_EVALUATE_SECONDS: "3601" })).toThrow(
      /CONSOLE_ALERT_EVALUATE_SECONDS: must be at most 3600/,
    );
  });

  it("stops with a 5 s delay within 25 s unless told, a grace at least the delay + 2 and below a forward's lease", () => {
    expect(parseEnv(valid)).toMatchObject({ CONSOLE_SHUTDOWN_DELAY_SECONDS: 5, CONSOLE_SHUTDOWN_GRACE_SECONDS: 25 });
    expect(() => parseEnv({ ...valid, CONSOLE_SHUTDOWN_DELAY_SECONDS: "61" })).toThrow(
      /CONSOLE_SHUTDOWN_DELAY_SECONDS: must be at most 60/,
    );
    expect(() =>
      parseEnv({ ...valid, CONSOLE_SHUTDOWN_DELAY_SECONDS: "10", CONSOLE_SHUTDOWN_GRACE_SECONDS: "11" }),
    ).toThrow(/CONSOLE_SHUTDOWN_GRACE_SECONDS: must be at least CONSOLE_SHUTDOWN_DELAY_SECONDS \+ 2/);
    expect(() => parseEnv({ ...valid, CONSOLE_SHUTDOWN_GRACE_SECONDS: "56" })).toThrow(
      /CONSOLE_SHUTDOWN_GRACE_SECONDS: must be at most 55/,
    );
  });

  it("takes the number of trusted proxies as a whole number from 0 to 10", () => {
    expect(parseEnv({ ...valid, CONSOLE_TRUSTED_PROXY_HOPS: "2" }).CONSOLE_TRUSTED_PROXY_HOPS).toBe(2);
    for (const bad of ["-1", "1.5", "eleven", "11"]) {
      expect(() => parseEnv({ ...valid, CONSOLE_TRUSTED_PROXY_HOPS: bad })).toThrow(
        /CONSOLE_TRUSTED_PROXY_HOPS: must be/,
      );
    }
  });

  it("in production, refuses to start until the number of trusted proxies is chosen, and says what each number means", () => {
    const production = { ...valid, NODE_ENV: "production" };
    for (const unset of [undefined, ""]) {
      let message = "";
      try {
        parseEnv({ ...production, CONSOLE_TRUSTED_PROXY_HOPS: unset });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain("CONSOLE_TRUSTED_PROXY_HOPS: must be set in production (0 included)");
      expect(message).toMatch(/^ +0: none/m);
      expect(message).toMatch(/^ +1: one proxy/m);
      expect(message).toMatch(/2: a load balancer in front of nginx/);
    }
    // 0 is a valid choice once made.
    expect(parseEnv({ ...production, CONSOLE_TRUSTED_PROXY_HOPS: "0" }).CONSOLE_TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseEnv({ ...production, CONSOLE_TRUSTED_PROXY_HOPS: "1" }).CONSOLE_TRUSTED_PROXY_HOPS).toBe(1);
  });

  it("reads the hosts forwarding may reach over http as lower-cased names and addresses, and names a bad entry", () => {
    const hosts = parseEnv({ ...valid, CONSOLE_FORWARD_ALLOWED_HOSTS: " 127.0.0.1, Hooks.Example.TEST,,[::1] " });
    expect(hosts.CONSOLE_FORWARD_ALLOWED_HOSTS).toEqual(["127.0.0.1", "hooks.example.test", "::1"]);
    for (const bad of ["127.0.0.1:8080", "http://hooks.example.test", "hooks.example.test/path"]) {
      expect(() => parseEnv({ ...valid, CONSOLE_FORWARD_ALLOWED_HOSTS: bad })).toThrow(
        /CONSOLE_FORWARD_ALLOWED_HOSTS\.0: each entry is a host name/,
      );
    }
  });

  it("takes the log's level from pino's levels, info unless told, and names a bad one", () => {
    expect(parseEnv(valid).CONSOLE_LOG_LEVEL).toBe("info");
    expect(parseEnv({ ...valid, CONSOLE_LOG_LEVEL: "warn" }).CONSOLE_LOG_LEVEL).toBe("warn");
    expect(() => parseEnv({ ...valid, CONSOLE_LOG_LEVEL: "verbose" })).toThrow(
      /CONSOLE_LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent$/m,
    );
    // The logger's own read never throws, whatever the rest of the environment: a bad level logs at info.
    expect(logLevel({ CONSOLE_LOG_LEVEL: "warn" })).toBe("warn");
    expect(logLevel({ CONSOLE_LOG_LEVEL: "verbose", NEXTAUTH_SECRET: "short" })).toBe("info");
    expect(logLevel({})).toBe("info");
  });

  it("parses previous encryption keys for rotation", () => {
    const old = Buffer.alloc(32, 9).toString("base64");
    expect(parseEnv({ ...valid, CONSOLE_PREVIOUS_ENCRYPTION_KEYS: old }).CONSOLE_PREVIOUS_ENCRYPTION_KEYS).toEqual([
      old,
    ]);
  });
});
