// Types of replica-scale.mjs for the TypeScript tests (the bench itself is plain JavaScript).

/** `base` for a run of `replicas` replicas: times the replicas with `each`, as it is with `total` or no replicas. */
export function scaledForReplicas(base: number, replicas: number | undefined, how: 'each' | 'total'): number;
