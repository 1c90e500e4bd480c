/**
 * A time-ordered queue of callbacks. Ties are broken by insertion order, so
 * the order of events is a function of the seed alone.
 */
interface Entry {
	at: number;
	seq: number;
	run: () => void;
}

export class EventQueue {
	private readonly heap: Entry[] = [];
	private seq = 0;

	get size(): number {
		return this.heap.length;
	}

	push(at: number, run: () => void): void {
		this.heap.push({ at, seq: this.seq++, run });
		let index = this.heap.length - 1;
		while (index > 0) {
			const parent = (index - 1) >> 1;
			if (!before(this.at(index), this.at(parent))) break;
			this.swap(index, parent);
			index = parent;
		}
	}

	pop(): Entry | undefined {
		const top = this.heap[0];
		const last = this.heap.pop();
		if (!top || !last || this.heap.length === 0) return top;
		this.heap[0] = last;
		let index = 0;
		for (;;) {
			const left = index * 2 + 1;
			const right = left + 1;
			let best = index;
			if (left < this.heap.length && before(this.at(left), this.at(best))) best = left;
			if (right < this.heap.length && before(this.at(right), this.at(best))) best = right;
			if (best === index) break;
			this.swap(index, best);
			index = best;
		}
		return top;
	}

	private at(index: number): Entry {
		return this.heap[index] as Entry;
	}

	private swap(a: number, b: number): void {
		const entry = this.at(a);
		this.heap[a] = this.at(b);
		this.heap[b] = entry;
	}
}

function before(a: Entry, b: Entry): boolean {
	return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
