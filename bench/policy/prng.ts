/**
 * A small seeded PRNG (mulberry32) and named sub-streams, so a run is a pure
 * function of its seed: the agent, the user and the harness draw from their
 * own streams, and no policy can shift what the others draw.
 */

/** FNV-1a over the parts, joined: a stable 32-bit seed for a named stream. */
export function seedFrom(...parts: readonly (string | number)[]): number {
	let hash = 0x811c9dc5;
	for (const char of parts.join("\u0000")) {
		hash ^= char.charCodeAt(0);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash >>> 0;
}

export class Rng {
	private state: number;

	constructor(readonly seed: number) {
		this.state = seed >>> 0;
	}

	/** Uniform in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	}

	/** Integer in [min, max], both included. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	float(min: number, max: number): number {
		return min + this.next() * (max - min);
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		const item = items[Math.floor(this.next() * items.length)];
		if (item === undefined) throw new Error("pick from an empty list");
		return item;
	}

	shuffle<T>(items: readonly T[]): T[] {
		const copy = [...items];
		for (let i = copy.length - 1; i > 0; i--) {
			const j = Math.floor(this.next() * (i + 1));
			const a = copy[i] as T;
			copy[i] = copy[j] as T;
			copy[j] = a;
		}
		return copy;
	}

	/** An independent stream named by `label`, derived from this one's seed. */
	fork(label: string): Rng {
		return new Rng(seedFrom(this.seed, label));
	}
}
