// Process-wide state (docs/architecture.md#process-wide-state). One process loads some modules more than
// once: Next's server bundles each carry their own copy, `next dev` re-evaluates modules on reload, and
// `npm start` runs main.ts's plain Node copy beside Next's bundled one. A module-level variable would then
// be one per copy — two database pools, two rate limiters, two live buses that never hear each other.
// What must be one per process lives on globalThis under a `Symbol.for(name)` key: every copy of this
// module resolves the same name to the same symbol, so the copies meet on one value.

const slots = globalThis as unknown as Record<symbol, unknown>;

/** The process's one value named `name`, made by `create` on first use (by whichever copy comes first). */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(name);
  if (!(key in slots)) slots[key] = create();
  return slots[key] as T;
}

/** A process-wide value that is set and cleared (started and stopped): the same key as processSingleton(name). */
export interface ProcessSlot<T> {
  get(): T | undefined;
  /** Sets it; undefined clears it. */
  set(value: T | undefined): void;
  /** Clears the slot and returns what it held (stop and close functions). */
  take(): T | undefined;
}

export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = Symbol.for(name);
  return {
    get: () => slots[key] as T | undefined,
    set: (value) => {
      if (value === undefined) delete slots[key];
      else slots[key] = value;
    },
    take: () => {
      const value = slots[key] as T | undefined;
      delete slots[key];
      return value;
    },
  };
}
