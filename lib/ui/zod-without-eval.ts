// Imported for its effect by the browser's zod users (the /v1 response schemas, Scalar on /docs). Zod
// probes `new Function` before compiling fast object parsers; under our CSP (no 'unsafe-eval') the probe
// is reported as a violation even though zod catches it. jitless parses the same without the probe.
import { config } from "zod/v4/core";

config({ jitless: true });
