import { readdirSync } from "node:fs";
import path from "node:path";

import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

// The import boundaries of ARCHITECTURE.md ("Dependencies"), checked on the resolved file of every import
// (`@/` and relative alike) by import/no-restricted-paths. lib/testing/import-boundaries.test.ts plants a
// bad import for each and checks it is reported.
const root = import.meta.dirname;

/** The ground floor of lib/: open to every feature, as are lib/*.ts. */
const ground = ["auth", "db", "metrics", "outbound", "service", "telemetry", "testing"];

/** What a feature may use of another, and which features each may use (nothing else of another feature). */
const publicModules = (feature) => [`${feature}.ts`, "types.ts", "schemas.ts", "constants.ts"];
const allowedEdges = {
  alerts: ["audit", "connections", "destinations", "webhooks"],
  "api-docs": ["alerts", "audit", "connections", "destinations", "erasure", "webhooks"],
  audit: [],
  connections: ["audit"],
  "data-points": ["audit", "connections"],
  destinations: ["audit", "connections", "webhooks"],
  "email-otp": ["audit", "connections"],
  erasure: ["audit", "connections", "users"],
  overview: ["connections", "email-otp", "webhooks"],
  team: ["audit"],
  tokens: ["audit"],
  users: ["audit", "connections"],
  webhooks: ["audit", "connections"],
};

const features = readdirSync(path.join(root, "lib"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !ground.includes(entry.name))
  .map((entry) => entry.name);
for (const feature of features) {
  if (!allowedEdges[feature])
    throw new Error(`eslint.config.mjs: name the features lib/${feature} may use in allowedEdges (ARCHITECTURE.md)`);
}

const zones = [
  {
    target: ["./components", "./lib"],
    from: "./app",
    message:
      "components/ and lib/ never import app/: a server action lives in lib/<feature>/actions.ts, and the component that calls it imports it.",
  },
  {
    target: "./lib/db",
    from: features.map((feature) => `./lib/${feature}`),
    message: "lib/db imports no feature: move what it needs into lib/db.",
  },
  {
    target: "./lib/outbound",
    from: features.map((feature) => `./lib/${feature}`),
    message: "lib/outbound imports no feature: it is the ground that forwarding and notices stand on.",
  },
  ...["e2e", "bench", "scripts"].map((folder) => ({
    target: `./${folder}`,
    from: ["./e2e", "./bench", "./scripts"].filter((other) => other !== `./${folder}`),
    message: "e2e/, bench/ and scripts/ never import one another: what they share lives in tooling/.",
  })),
  {
    target: "./tooling",
    from: ["./e2e", "./bench", "./scripts"],
    message: "tooling/ is what e2e/, bench/ and scripts/ share: it imports none of them.",
  },
  {
    target: "./emulator",
    from: "./lib",
    message: "emulator/ stands for the real service: it imports nothing from lib/.",
  },
  {
    target: "./lib/service",
    from: "./lib/connections",
    message: "lib/service knows nothing of connections: it takes credentials and a region.",
  },
];

/** A feature reaches another only along an allowed edge, and then only through its public modules. */
const featureZones = features.flatMap((feature) =>
  features
    .filter((other) => other !== feature)
    .map((other) => {
      const allowed = allowedEdges[feature].includes(other);
      return {
        target: `./lib/${feature}`,
        from: `./lib/${other}`,
        except: allowed ? publicModules(other).map((file) => `./${file}`) : [],
        message: allowed
          ? `lib/${feature} uses lib/${other} only through ${publicModules(other).join(", ")}.`
          : `lib/${feature} may not use lib/${other}: not an allowed edge (eslint.config.mjs, ARCHITECTURE.md).`,
      };
    }),
);

/** Features import lib/metrics to count; its tests send real traffic through them, as a feature's tests set up another's state. */
const metricsZone = {
  target: "./lib/metrics",
  from: features.map((feature) => `./lib/${feature}`),
  message: "lib/metrics imports no feature: features import it to count, and its gauges read lib/db's tables.",
};

/** A server action is an entry point (its own role check, parse and revalidation): lib calls the function it wraps. */
const actionsZone = {
  target: "./lib",
  from: features.map((feature) => `./lib/${feature}/actions.ts`),
  message:
    "lib/ never calls a server action: call the lib function it wraps (components import lib/<feature>/actions.ts).",
};

const boundaries = (zoneList) => ({ "import/no-restricted-paths": ["error", { basePath: root, zones: zoneList }] });

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [".next*/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  { files: ["**/*.{ts,tsx,mts,mjs}"], rules: boundaries(zones) },
  // Links do not prefetch: components/ui/link.tsx says why.
  {
    files: ["**/*.tsx"],
    ignores: ["components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "next/link", message: "Use Link from @/components/ui/link (it does not prefetch)." }] },
      ],
    },
  },
  // A test (and its test-helpers.ts) sets up the state its subject reads, so it may reach any module of another feature.
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts", "**/test-helpers.ts"],
    rules: boundaries([...zones, metricsZone, actionsZone, ...featureZones]),
  },
  // Layout is Prettier's (`npm run format`; `npm run lint` checks it): no style rule of ESLint's disagrees.
  prettier,
];

export default config;
