// Bundles the CLIs (and the emulator and compose.yaml's demo seed) into plain JavaScript files for the image, where
// tsx (a development dependency) is not installed: `node tooling/image/bundle-clis.mjs OUT_DIR` writes
// OUT_DIR/<name>.mjs, and the code they share as chunks beside them.
// lib is imported with the `react-server` condition (so `server-only` resolves to its empty module), as the
// `npm run <cli>` scripts do with tsx. The native and WASM packages stay outside the bundle, as in next.config.js's
// serverExternalPackages: they load their own files at run time, from the standalone output's node_modules.
import path from "node:path";

import { build } from "esbuild";

const out = process.argv[2];
if (!out) {
  console.error("Usage: node tooling/image/bundle-clis.mjs OUT_DIR");
  process.exit(2);
}
const entries = {
  users: "scripts/users.ts",
  connections: "scripts/connections.ts",
  destinations: "scripts/destinations.ts",
  tokens: "scripts/tokens.ts",
  purge: "scripts/purge.ts",
  secrets: "scripts/secrets.ts",
  erase: "scripts/erase.ts",
  "db:migrate": "scripts/migrate.ts",
  emulator: "emulator/main.ts",
  "demo-seed": "tooling/image/demo-seed.ts",
};
await build({
  entryPoints: Object.entries(entries).map(([name, file]) => ({ in: file, out: name.replace(":", "-") })),
  outdir: path.resolve(out),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true, // the code the commands share in chunks of its own, once
  platform: "node",
  target: "node20.19",
  format: "esm",
  conditions: ["react-server"],
  external: ["@electric-sql/pglite", "@node-rs/argon2", "pg", "pg-native"],
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
});
console.log(`bundled ${Object.keys(entries).length} commands into ${out}`);
