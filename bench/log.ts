// What every part of the benchmark prints its progress with.
export const log = (msg: string) => console.log(`[bench] ${msg}`);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
