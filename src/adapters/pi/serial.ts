/**
 * The extension's engine calls run one after the other, in the order pi's
 * events came: pi does not await every handler (`ui_prompt_*` are
 * best-effort), so without this a turn's end could overtake its start.
 *
 * Contract: `run` never rejects; a job that throws is reported to `onError`
 * and resolves to null, and the next job runs all the same.
 */
export class Serial {
	private tail: Promise<unknown> = Promise.resolve();

	constructor(private readonly onError: (where: string, error: unknown) => Promise<void>) {}

	run<T>(where: string, job: () => Promise<T>): Promise<T | null> {
		const result = this.tail.then(job).catch(async (error: unknown) => {
			await this.onError(where, error);
			return null;
		});
		this.tail = result;
		return result;
	}

	/** Resolves once every job queued so far has run. */
	async idle(): Promise<void> {
		let seen: Promise<unknown> | null = null;
		while (seen !== this.tail) {
			seen = this.tail;
			await seen;
		}
	}
}

/** `promise`'s value, or `onLate` is told it and null comes back when it takes longer than `ms`. */
export function withinDeadline<T>(promise: Promise<T>, ms: number, onLate: (value: T) => void): Promise<T | null> {
	let late = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const deadline = new Promise<null>((resolve) => {
		timer = setTimeout(() => {
			late = true;
			resolve(null);
		}, ms);
		timer.unref?.();
	});
	void promise.then((value) => {
		if (late) onLate(value);
	});
	return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
