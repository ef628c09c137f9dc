// The calm "temporarily unavailable" page: answered by an instance while no database can be read
// (./unavailable-page.ts), and by the load balancer when no instance can answer (scripts/cluster/haproxy.ts).
// Self-contained (no scripts, no external styles), so it works wherever it is served from.

export const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Temporarily unavailable – Markets</title>
<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;color:#18181b;background:#fff}
@media (prefers-color-scheme:dark){body{color:#f4f4f5;background:#09090b}}main{max-width:32rem;padding:2rem;text-align:center}
p{color:#71717a}a{color:inherit}</style></head>
<body><main><h1>Temporarily unavailable</h1>
<p>Market data cannot be loaded right now. This page will work again in a moment; <a href="">try again</a>.</p>
</main></body></html>`;
