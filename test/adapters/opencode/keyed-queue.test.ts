import { describe, expect, it } from "vitest";
import { KeyedQueue } from "../../../src/adapters/opencode/keyed-queue.js";
import { ManualTime } from "./manual-time.js";

const LIMIT_MS = 1_000;

function queue(time: ManualTime, errors: string[] = []) {
	return new KeyedQueue({
		limitMs: LIMIT_MS,
		what: "handling an event",
		scheduler: time,
		onError: async (key, error) => {
			errors.push(`${key}: ${error instanceof Error ? error.message : String(error)}`);
		},
	});
}

/** A job that runs until the test lets it finish. */
function held(log: string[], name: string) {
	let finish!: () => void;
	const done = new Promise<void>((resolve) => {
		finish = resolve;
	});
	return {
		job: async () => {
			log.push(`${name} starts`);
			await done;
			log.push(`${name} ends`);
		},
		finish: () => finish(),
	};
}

describe("the per-session job queue", () => {
	it("runs one key's jobs one after the other, while another key's go on", async () => {
		const time = new ManualTime();
		const jobs = queue(time);
		const log: string[] = [];
		const first = held(log, "s1 first");
		void jobs.enqueue("s1", first.job);
		void jobs.enqueue("s1", async () => {
			log.push("s1 second");
		});
		await jobs.enqueue("s2", async () => {
			log.push("s2 only");
		});
		expect(log).toEqual(["s1 first starts", "s2 only"]);
		first.finish();
		await jobs.settled();
		expect(log).toEqual(["s1 first starts", "s2 only", "s1 first ends", "s1 second"]);
		expect(jobs.size).toBe(0);
	});

	it("reports a failing job and runs the next; its promise never rejects", async () => {
		const time = new ManualTime();
		const errors: string[] = [];
		const jobs = queue(time, errors);
		const log: string[] = [];
		await expect(
			jobs.enqueue("s1", async () => {
				throw new Error("disk full");
			}),
		).resolves.toBeUndefined();
		await jobs.enqueue("s1", async () => {
			log.push("next");
		});
		expect(errors).toEqual(["s1: disk full"]);
		expect(log).toEqual(["next"]);
	});

	it("stops waiting for a job past the time limit, so the next one runs; the stuck one may still finish", async () => {
		const time = new ManualTime();
		const errors: string[] = [];
		const jobs = queue(time, errors);
		const log: string[] = [];
		const stuck = held(log, "stuck");
		void jobs.enqueue("s1", stuck.job);
		void jobs.enqueue("s1", async () => {
			log.push("next");
		});
		await time.advance(LIMIT_MS - 1);
		expect(log).toEqual(["stuck starts"]);
		expect(errors).toEqual([]);
		await time.advance(1);
		expect(log).toEqual(["stuck starts", "next"]);
		expect(errors).toEqual([`s1: handling an event timed out after ${LIMIT_MS} ms`]);
		stuck.finish();
		await jobs.settled();
		expect(log).toEqual(["stuck starts", "next", "stuck ends"]);
	});

	it("is settled only once the jobs that jobs queued have run too", async () => {
		const time = new ManualTime();
		const jobs = queue(time);
		const log: string[] = [];
		void jobs.enqueue("s1", async () => {
			void jobs.enqueue("s2", async () => {
				log.push("queued by a job");
			});
		});
		await jobs.settled();
		expect(log).toEqual(["queued by a job"]);
		expect(time.pending()).toEqual([]);
	});
});
