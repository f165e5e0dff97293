// Starts the bridging model's background schedule once per process, whichever way the server was
// started (`npm start` → main.ts; `next start`/`next dev` → instrumentation.ts), and stops it on
// shutdown. The flag lives on globalThis: Next evaluates modules more than once.
import { config } from "../config.ts";
import { startBridgingScheduler, type BridgingScheduler } from "../services/bridging.ts";

const g = globalThis as unknown as { __bridgingScheduler?: BridgingScheduler };

export function startBridgingInBackground(): void {
  g.__bridgingScheduler ??= startBridgingScheduler(config().BRIDGING_INTERVAL_SECONDS);
}

export async function stopBridgingInBackground(): Promise<void> {
  const s = g.__bridgingScheduler;
  g.__bridgingScheduler = undefined;
  await s?.stop();
}
