import { fileURLToPath } from "node:url";

const dev = process.env.NODE_ENV !== "production";

// Security headers of every page (the /api/v1 adapter sends its own: server/rest/handler.ts).
// Scripts: 'unsafe-inline' instead of per-request nonces, because Next's inline bootstrap scripts need
// one or the other and nonces would force every page to render dynamically. What keeps injected
// markup from running is React's escaping (the UI never sets raw HTML: tests/security/headers.test.ts
// checks), and the rest of the policy still refuses other origins' scripts, plugins, <base>
// hijacking and framing. No form-action: NextAuth's sign-in forms redirect to the OAuth providers.
// Development adds what `next dev` needs (eval for fast refresh, its websocket).
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  `connect-src 'self'${dev ? " ws: wss:" : ""}`,
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const pageSecurityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

// The one address other sites may frame: a claim's embed (/embed/claims/{id}, docs/features/open-web.md#embeds).
// Any ancestor may frame it (frame-ancestors *, no X-Frame-Options); the rest of the policy is the
// pages' own, its one inline script and style included.
export const embedSecurityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy.replace("frame-ancestors 'none'", "frame-ancestors *") },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Where incrementally rendered pages are kept: Redis when REDIS_URL is set, else the file system
  // (server/cache/page-store.ts, docs/features/page-cache.md).
  cacheHandler: fileURLToPath(new URL("./server/cache/page-store.ts", import.meta.url)),
  // Next's in-memory copy of kept pages in front of the store: 16 MB as Next counts them (its default,
  // 50 MB, held ≈63 MB of live objects at the server's peak under the bench; docs/features/page-cache.md).
  cacheMaxMemorySize: 16 * 1024 * 1024,
  async headers() {
    // Everything but /api/v1, whose CORS-open, no-content policy is the adapter's, and the embeds.
    return [
      { source: "/((?!api/v1(?:/|$)|embed/).*)", headers: pageSecurityHeaders },
      { source: "/embed/:path*", headers: embedSecurityHeaders },
    ];
  },
  // A claim page's Markdown twin: the page's [id] segment cannot hold a second route, so the .md
  // address is served by its own route handler (app/markdown/claims/[id]).
  async rewrites() {
    return {
      beforeFiles: [
        { source: "/claims/:id([^/]+)\\.md", destination: "/markdown/claims/:id" },
        // The app folder cannot hold a dot-folder route: the well-known document is served from /oauth.
        { source: "/.well-known/oauth-protected-resource", destination: "/oauth/protected-resource" },
        // RFC 9728 §3.1's path-suffixed form for the resource at /mcp, which clients try first.
        { source: "/.well-known/oauth-protected-resource/mcp", destination: "/oauth/protected-resource" },
        { source: "/.well-known/oauth-authorization-server", destination: "/oauth/authorization-server" },
        // The open data (docs/features/open-data.md): its signing key's well-known address, and the list
        // of snapshots as JSON for a program asking GET /data (Accept names JSON, not HTML; a browser gets the page).
        { source: "/.well-known/claims-data-key", destination: "/data/key" },
        { source: "/data", has: [{ type: "header", key: "accept", value: "(?!.*text/html).*application/json.*" }], destination: "/data.json" },
      ],
    };
  },
  // PGlite's WASM files and trpc-to-openapi's zod coercion must be loaded from node_modules, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "trpc-to-openapi",
    "pg-boss",
    "request-filtering-agent",
    "standardwebhooks",
    "pino",
    "prom-client",
    // One copy for the node-level OAuth endpoints and the consent page (server/oauth/).
    "oidc-provider",
    // Server-only libraries loaded from node_modules rather than compiled into every route's bundle:
    // `next dev` compiled them again for each route's first load, and every route's chunk carried its
    // own copy (docs/benchmarks/2026-11-28-dev-start.md). NextAuth (with openid-client) and zod alone
    // were a third of the server's modules.
    "next-auth",
    "zod",
    "zod-openapi",
    "ioredis",
    "nodemailer",
    "jose",
    "bcryptjs",
    "@upstash/redis",
    "@upstash/ratelimit",
    "@modelcontextprotocol/sdk",
  ],
  // Server actions read their body with this limit (the 256 KiB every other way in has: docs/security.md#every-way-in);
  // route handlers bound their own reads (server/http/body-limit.ts).
  // No source maps of the server bundles: Node (source maps on for our TypeScript under tsx) would load
  // and keep every chunk's map, ≈90 MB of the production server's memory (docs/benchmarks/2026-11-26-pages-api-similar.md).
  experimental: { serverActions: { bodySizeLimit: "256kb" }, serverSourceMaps: false },
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
