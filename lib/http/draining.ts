// A graceful stop (SIGTERM: a deploy, systemd, a rolling restart): readiness goes false first, so that
// the load balancer takes the instance out of rotation while it still answers everything it is sent;
// then the push channels close (their clients reconnect through the load balancer to another instance),
// the server stops taking connections and the requests in flight finish (docs/operations.md "Shutdown").
import "server-only";
import { shared } from "@/lib/process-state";

const state = () => shared("draining", () => ({ since: 0 }));

/** /readyz answers 503 "draining" from now on. */
export function startDraining(): void {
  state().since ||= Date.now();
}

export function isDraining(): boolean {
  return state().since > 0;
}
