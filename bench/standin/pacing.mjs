// An offered load for the stand-in (`--rate`): update i arrives at the service at start + i / rate instead of all
// being queued at once, so that latency can be read at a load below the bot's highest (the way a real service's
// updates trickle in). Without a rate every update has arrived when the bot first asks.

/**
 * @param {{ count: number, rate?: number, onArrival?: (arrived: number) => void }} options rate in updates/s
 * @returns {{ paced: boolean, start(at: bigint): void, arrived(): number, arrivedAt(index: number): bigint, stop(): void }}
 */
export function createArrivals({ count, rate, onArrival = () => {} }) {
  if (!rate) {
    return { paced: false, start() {}, arrived: () => count, arrivedAt: () => 0n, stop() {} };
  }
  const stepNs = 1e9 / rate;
  let startedAt = 0n;
  let arrived = 0;
  let timer = null;
  const arrivedAt = (index) => startedAt + BigInt(Math.round(index * stepNs));
  // A 1 ms tick releases every update whose time has come: at thousands a second, a timer per update would cost
  // the stand-in more than the updates' own work.
  function tick() {
    const elapsedNs = Number(process.hrtime.bigint() - startedAt);
    const due = Math.min(count, Math.floor(elapsedNs / stepNs) + 1);
    if (due > arrived) {
      arrived = due;
      onArrival(arrived);
    }
    if (arrived >= count) stop();
  }
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }
  return {
    paced: true,
    start(at) {
      if (startedAt !== 0n) return;
      startedAt = at;
      timer = setInterval(tick, 1);
      tick();
    },
    arrived: () => arrived,
    arrivedAt,
    stop,
  };
}
