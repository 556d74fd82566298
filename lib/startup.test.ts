import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { setUpTestDatabase } from "@/lib/testing/database";

const email = "bootstrap.admin@example.com";
let tearDown: () => Promise<void>;

beforeAll(async () => {
  process.env.CONSOLE_BOOTSTRAP_ADMIN_EMAIL = email;
  process.env.CONSOLE_BOOTSTRAP_ADMIN_PASSWORD = "a-long-bootstrap-password-0001";
  ({ tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

it("creates the bootstrap admin and says so without writing the address to the log", async () => {
  const { startUp } = await import("./startup");
  const { countUsers } = await import("@/lib/auth/users");
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
  try {
    await startUp();
  } finally {
    spy.mockRestore();
  }
  expect(await countUsers()).toBe(1);
  expect(written.join("")).toContain("created the bootstrap admin");
  expect(written.join("")).not.toContain(email);
});
