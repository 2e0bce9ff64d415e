/** How long a stretch of synchronous work may hold the event loop (the host's main process) before it yields. */
export const SLICE_MS = 10;

/**
 * A function to await between small synchronous steps: it yields to the event loop (`setImmediate`)
 * once `sliceMs` of work has gone by since the last yield, and costs a clock read otherwise. Work over
 * a big tree (30,000 trees to write, 300,000 cache lines) then never blocks the host for longer than a
 * slice and a step.
 */
export function pacer(sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}
