/** @type {import('next').NextConfig} */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

const nextConfig = {
  reactStrictMode: true,
  // Lets two builds (say, two e2e runs on one machine) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The image's build (Dockerfile) asks for a self-contained server folder (.next/standalone: the traced node_modules
  // only). Elsewhere none: server.mjs runs from the repo, and Next warns at start on a standalone build it runs so.
  output: process.env.CONSOLE_STANDALONE_BUILD === "1" ? "standalone" : undefined,
  // sharp serves next/image, which the console does not use: 20 MB less in the image.
  outputFileTracingExcludes: { "*": ["node_modules/@img/**", "node_modules/sharp/**"] },
  // Native and WASM packages load their own files at run time; bundling them breaks that.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "pg"],
  experimental: {
    authInterrupts: true,
    // Next copies the body of every request proxy.ts runs for (pages, server actions, /api/auth) into memory,
    // twice, up to this size (10 MB by default), and cuts the body the route then reads at the same size. No
    // route of the console takes more than the webhook receiver, MAX_WEBHOOK_BODY_BYTES in
    // lib/webhooks/receive.ts (256 KiB; lib/proxy-body-limit.test.ts holds the two equal): its webhook URLs
    // bypass the proxy (see its matcher), and one with a `%` that passes through it still arrives whole.
    proxyClientMaxBodySize: 256 * 1024,
  },
  // proxy.ts redirects trailing slashes itself, except on webhook URLs (the service follows no redirect).
  skipTrailingSlashRedirect: true,
  // `npm test` type-checks the whole tree (npm run typecheck) before it builds; not twice.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
