// npm ci installs from package-lock.json without asking the registry for any package's metadata only when
// every package there carries its download address and checksum (.npmrc says why that matters).
import fs from "node:fs";
import path from "node:path";

import { expect, it } from "vitest";

type LockedPackage = { resolved?: string; integrity?: string; link?: boolean; inBundle?: boolean };

it("package-lock.json gives every package from the registry its download address and checksum", () => {
  const lock = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package-lock.json"), "utf8")) as {
    packages: Record<string, LockedPackage>;
  };
  // "" is the project itself; a link points into the project; a bundled package comes inside its parent's tarball.
  const installed = Object.entries(lock.packages).filter(
    ([key, entry]) => key !== "" && !entry.link && !entry.inBundle,
  );
  expect(installed.length).toBeGreaterThan(100);
  const missing = installed.filter(
    ([, entry]) => !entry.resolved?.startsWith("https://") || !entry.integrity?.startsWith("sha512-"),
  );
  expect(missing.map(([key]) => key)).toEqual([]);
});
