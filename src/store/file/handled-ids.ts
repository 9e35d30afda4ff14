// The update journal's memory of handled update ids and their fingerprints, oldest handled first: what a
// `Map<number, string>` would hold, in typed arrays. In webhook mode there is no offset to forget ids below, so
// the journal holds up to twice its capacity (100,000 ids by default): about 6.5 MB as a Map of numbers to
// 12-character strings, 3.3 MB here (BENCHMARKS.md, "Issue 38, sixteenth pass").

// How a slot's fingerprint is kept.
/** Not in use: never written, or its id was deleted. */
const FREE = 0;
/** The empty fingerprint (a line written by an older version). */
const BARE = 1;
/** 12 base64url characters (what updateFingerprint makes), packed into 9 bytes. */
const PACKED = 2;
/** Any other text, kept as it is in `others`. */
const OTHER = 3;

/** What updateFingerprint makes: 12 base64url characters, 72 bits, which Buffer's base64url codec packs exactly. */
const PACKABLE = /^[A-Za-z0-9_-]{12}$/;
const PACKED_BYTES = 9;
const INITIAL_SLOTS = 1024;

/**
 * Handled update ids with their fingerprints, in the order they were set (setting a known id moves it to the newest
 * end), as a Map would keep them. Deleting while iterating is allowed, as with a Map; setting while iterating is not.
 * Leaves out everything else a Map does (values other than strings, `forEach`, keys that are not integers).
 */
export class HandledIds {
  /** Slots [head, tail) hold the ids in the order they were set; a deleted one stays as a free slot until compaction. */
  private ids = new Float64Array(INITIAL_SLOTS);
  private kinds = new Uint8Array(INITIAL_SLOTS);
  private prints = Buffer.alloc(INITIAL_SLOTS * PACKED_BYTES);
  private readonly others = new Map<number, string>();
  /** Open addressing with linear probing: slot + 1 per id, 0 for none; at most half full. */
  private index = new Int32Array(INITIAL_SLOTS * 2);
  private head = 0;
  private tail = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(id: number): boolean {
    return this.slotOf(id) >= 0;
  }

  get(id: number): string | undefined {
    const slot = this.slotOf(id);
    return slot < 0 ? undefined : this.fingerprintAt(slot, id);
  }

  /** Remembers `id` as the newest, with its fingerprint ('' for none). */
  set(id: number, fingerprint: string): this {
    this.delete(id);
    if (this.tail === this.ids.length) this.compact();
    const slot = this.tail;
    this.tail += 1;
    this.ids[slot] = id;
    if (fingerprint === '') this.kinds[slot] = BARE;
    else if (PACKABLE.test(fingerprint)) {
      this.kinds[slot] = PACKED;
      this.prints.write(fingerprint, slot * PACKED_BYTES, PACKED_BYTES, 'base64url');
    } else {
      this.kinds[slot] = OTHER;
      this.others.set(id, fingerprint);
    }
    this.insert(id, slot);
    this.count += 1;
    return this;
  }

  delete(id: number): boolean {
    const position = this.positionOf(id);
    if (position < 0) return false;
    const slot = this.index[position]! - 1;
    this.unindex(position);
    if (this.kinds[slot] === OTHER) this.others.delete(id);
    this.kinds[slot] = FREE;
    this.count -= 1;
    while (this.head < this.tail && this.kinds[this.head] === FREE) this.head += 1;
    return true;
  }

  clear(): void {
    this.ids = new Float64Array(INITIAL_SLOTS);
    this.kinds = new Uint8Array(INITIAL_SLOTS);
    this.prints = Buffer.alloc(INITIAL_SLOTS * PACKED_BYTES);
    this.index = new Int32Array(INITIAL_SLOTS * 2);
    this.others.clear();
    this.head = this.tail = this.count = 0;
  }

  /** The ids, oldest set first. */
  *keys(): IterableIterator<number> {
    for (let slot = this.head; slot < this.tail; slot += 1) if (this.kinds[slot] !== FREE) yield this.ids[slot]!;
  }

  /** [id, fingerprint] pairs, oldest set first. */
  *[Symbol.iterator](): IterableIterator<[number, string]> {
    for (let slot = this.head; slot < this.tail; slot += 1) {
      if (this.kinds[slot] !== FREE) yield [this.ids[slot]!, this.fingerprintAt(slot, this.ids[slot]!)];
    }
  }

  private fingerprintAt(slot: number, id: number): string {
    const kind = this.kinds[slot];
    if (kind === PACKED) return this.prints.toString('base64url', slot * PACKED_BYTES, (slot + 1) * PACKED_BYTES);
    return kind === OTHER ? this.others.get(id)! : '';
  }

  private slotOf(id: number): number {
    const position = this.positionOf(id);
    return position < 0 ? -1 : this.index[position]! - 1;
  }

  /** Where `id` is in the index, or -1. */
  private positionOf(id: number): number {
    const mask = this.index.length - 1;
    for (let position = hashOf(id) & mask; ; position = (position + 1) & mask) {
      const entry = this.index[position]!;
      if (entry === 0) return -1;
      if (this.ids[entry - 1] === id) return position;
    }
  }

  private insert(id: number, slot: number): void {
    const mask = this.index.length - 1;
    let position = hashOf(id) & mask;
    while (this.index[position] !== 0) position = (position + 1) & mask;
    this.index[position] = slot + 1;
  }

  /** Empties `position`, moving back the entries after it that probing would otherwise no longer reach. */
  private unindex(position: number): void {
    const mask = this.index.length - 1;
    let hole = position;
    for (let next = (hole + 1) & mask; this.index[next] !== 0; next = (next + 1) & mask) {
      const home = hashOf(this.ids[this.index[next]! - 1]!) & mask;
      // The entry at `next` may fill the hole unless its home lies cyclically after the hole, up to `next`.
      const reachable = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!reachable) {
        this.index[hole] = this.index[next]!;
        hole = next;
      }
    }
    this.index[hole] = 0;
  }

  /**
   * Moves the ids in use to the front, into arrays twice as large when more than 7/8 of the slots are in use: the
   * journal keeps between its capacity and twice that, so 100,000 ids stay in 131,072 slots, each compaction then
   * freeing at least an eighth of them.
   */
  private compact(): void {
    const slots = this.count * 8 > this.ids.length * 7 ? this.ids.length * 2 : this.ids.length;
    const ids = new Float64Array(slots);
    const kinds = new Uint8Array(slots);
    const prints = Buffer.alloc(slots * PACKED_BYTES);
    let to = 0;
    for (let from = this.head; from < this.tail; from += 1) {
      if (this.kinds[from] === FREE) continue;
      ids[to] = this.ids[from]!;
      kinds[to] = this.kinds[from]!;
      prints.set(this.prints.subarray(from * PACKED_BYTES, (from + 1) * PACKED_BYTES), to * PACKED_BYTES);
      to += 1;
    }
    this.ids = ids;
    this.kinds = kinds;
    this.prints = prints;
    this.index = new Int32Array(slots * 2);
    for (let slot = 0; slot < to; slot += 1) this.insert(ids[slot]!, slot);
    this.head = 0;
    this.tail = to;
  }
}

/** Spreads ids (consecutive, mostly) over the index: an odd multiplier permutes the low bits. */
function hashOf(id: number): number {
  return Math.imul((id >>> 0) ^ ((id / 4294967296) >>> 0), 0x9e3779b1) >>> 0;
}
