// The demo's users (npm run demo, npm run tour, the image's demo seed in compose.yaml): a module of its own, so that
// tooling/image/demo-seed.ts takes them without the rest of the demo's stack.
export const demoUsers = [
  { email: "admin@demo.test", password: "demo-admin-password", name: "Demo Admin", role: "admin" },
  { email: "support@demo.test", password: "demo-support-password", name: "Demo Support", role: "support" },
] as const;
