// What must stop before the pools close on shutdown: background workers (the job queue, webhook
// delivery) register here, so that after the last request is answered they finish or hand back their
// current job while the database is still open. main.ts runs them, then closes pools and stores.
import { processSingleton } from "../process-singleton.ts";
type StopHook = () => Promise<unknown> | unknown;

const hooks = processSingleton("claims.stopHooks", () => new Map<string, StopHook>());

/** Registers (or replaces, by name) something to stop before the pools close. */
export function beforePoolsClose(name: string, stop: StopHook): void {
  hooks.set(name, stop);
}

/** Runs every hook at once and waits for all of them (a failing one does not hold up the others). */
export async function runStopHooks(): Promise<void> {
  await Promise.allSettled([...hooks.values()].map(async (stop) => stop()));
}
