// Types of round-order.mjs for the TypeScript tests (the bench itself is plain JavaScript).

/** The contestants' order in round `round` (1-based), as indexes: each round starts one further along. */
export function roundOrder(count: number, round: number): number[];
