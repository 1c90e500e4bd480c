/**
 * A set and a map that forget their oldest entries past a size. The plugin
 * lives as long as the OpenCode server, and what it remembers to recognise
 * repeats (event ids, message ids, tool calls, the text of recent messages)
 * must not grow without end. Oldest means first added: adding an entry again
 * does not renew it, so a flood of repeats cannot keep one alive forever.
 */

export class BoundedMap<K, V> {
	private readonly entries = new Map<K, V>();

	constructor(private readonly max: number) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: K): V | undefined {
		return this.entries.get(key);
	}

	has(key: K): boolean {
		return this.entries.has(key);
	}

	set(key: K, value: V): void {
		this.entries.set(key, value);
		if (this.entries.size > this.max) {
			const oldest = this.entries.keys().next();
			if (!oldest.done) this.entries.delete(oldest.value);
		}
	}

	delete(key: K): boolean {
		return this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}

	/** Oldest first. */
	keys(): IterableIterator<K> {
		return this.entries.keys();
	}
}

export class BoundedSet<T> {
	private readonly items: BoundedMap<T, true>;

	constructor(max: number) {
		this.items = new BoundedMap(max);
	}

	get size(): number {
		return this.items.size;
	}

	/** Remembers `value`; false when it was remembered already (a repeat). */
	add(value: T): boolean {
		if (this.items.has(value)) return false;
		this.items.set(value, true);
		return true;
	}

	has(value: T): boolean {
		return this.items.has(value);
	}

	delete(value: T): boolean {
		return this.items.delete(value);
	}

	clear(): void {
		this.items.clear();
	}
}
