import { describe, expect, it } from "vitest";
import type { PromptRoute } from "../../../src/adapters/opencode/api.js";
import { answerPart, Deliveries, type Nudge, nudgePart } from "../../../src/adapters/opencode/delivery.js";
import { CLAIM_LINGER_MS, claimKey, releaseClaim } from "../../../src/adapters/opencode/shared.js";
import { FakeApi } from "./helpers.js";
import { ManualTime } from "./manual-time.js";

/** How long a sent nudge may take to appear, in these tests. */
const CONFIRM_MS = 50;

let keys = 0;
function nudge(overrides: Partial<Nudge> = {}): Nudge {
	return {
		ref: { harness: "opencode", sessionId: `ses_gate_${keys}` },
		key: `session.opencode.ses_gate#${++keys}.0`,
		text: "Carry on.",
		countdownMs: 0,
		open: 2,
		route: async (): Promise<PromptRoute> => ({ agent: "build", model: null }),
		...overrides,
	};
}

function deliveries(api: FakeApi, time: ManualTime, failed: string[] = []) {
	return new Deliveries({
		api,
		confirmMs: CONFIRM_MS,
		clock: time,
		scheduler: time,
		report: {
			failed: async (_, key, reason) => {
				failed.push(`${key}: ${reason}`);
			},
			error: async () => undefined,
		},
	});
}

describe("the process-wide gate", () => {
	it("lets one claim of a key win while its delivery runs, and for a while after it ends", () => {
		const key = `gate-${++keys}`;
		expect(claimKey(key, 1_000)).toBe(true);
		expect(claimKey(key, 1_001)).toBe(false);
		expect(claimKey(key, 1_000 + 10 * CLAIM_LINGER_MS)).toBe(false);
		releaseClaim(key, 2_000);
		expect(claimKey(key, 2_000 + CLAIM_LINGER_MS - 1)).toBe(false);
		expect(claimKey(key, 2_000 + CLAIM_LINGER_MS)).toBe(true);
	});

	it("sends one prompt when two instances (two delivery queues) get the same decision", async () => {
		const api = new FakeApi();
		const time = new ManualTime();
		const one = nudge();
		const a = deliveries(api, time);
		const b = deliveries(api, time);
		expect(a.begin(one)).toBe(true);
		expect(b.begin({ ...one })).toBe(false);
		expect(a.begin({ ...one })).toBe(false);
		await time.advance(0);
		expect(api.prompts).toHaveLength(1);
		await time.advance(10 * CONFIRM_MS);
		expect(api.prompts).toHaveLength(1);
		a.close("test over");
		b.close("test over");
	});
});

describe("a delivery", () => {
	it("is confirmed by the nudge's own message appearing, and only once", async () => {
		const api = new FakeApi();
		const time = new ManualTime();
		const failed: string[] = [];
		const queue = deliveries(api, time, failed);
		const one = nudge();
		queue.begin(one);
		await time.advance(CONFIRM_MS - 1);
		expect(api.prompts).toHaveLength(1);
		expect(queue.confirm(one.key)).toBe(true);
		expect(queue.confirm(one.key)).toBe(false);
		await time.advance(10 * CONFIRM_MS);
		expect(failed).toEqual([]);
		expect(time.pending()).toEqual([]);
	});

	it("reports a prompt that never appears, and a prompt OpenCode refuses, as not delivered", async () => {
		const api = new FakeApi();
		const time = new ManualTime();
		const failed: string[] = [];
		const queue = deliveries(api, time, failed);
		const silent = nudge();
		queue.begin(silent);
		await time.advance(CONFIRM_MS - 1);
		expect(failed).toEqual([]);
		await time.advance(1);
		expect(failed).toHaveLength(1);
		expect(failed[0]).toMatch(/did not appear in the session within 50 ms/);
		expect(queue.confirm(silent.key)).toBe(false);

		api.promptError = new Error("HTTP 400");
		queue.begin(nudge());
		await time.advance(0);
		expect(failed).toHaveLength(2);
		expect(failed[1]).toMatch(/OpenCode did not accept the prompt: HTTP 400/);
	});

	it("cancels a countdown before anything is sent", async () => {
		const api = new FakeApi();
		const time = new ManualTime();
		const failed: string[] = [];
		const queue = deliveries(api, time, failed);
		const first = nudge({ countdownMs: 100 });
		queue.begin(first);
		expect(queue.counting(first.ref.sessionId)).toBe(true);
		await time.advance(99);
		expect(queue.cancel(first.ref.sessionId, "the user wrote")).toBe(true);
		expect(queue.cancel(first.ref.sessionId, "again")).toBe(false);
		expect(time.pending()).toEqual([]);
		await time.advance(10 * 100);
		expect(api.prompts).toHaveLength(0);
		expect(failed).toEqual([`${first.key}: cancelled before sending: the user wrote`]);
		expect(api.toasts.map((toast) => toast.message)).toEqual([
			"continuing in 1s — 2 items left (/boulder stop cancels)",
		]);
	});

	it("replaces an older nudge's countdown with a newer one's, and sends only the newer", async () => {
		const api = new FakeApi();
		const time = new ManualTime();
		const failed: string[] = [];
		const queue = deliveries(api, time, failed);
		const older = nudge({ countdownMs: 100 });
		const newer = nudge({ countdownMs: 100, ref: older.ref, text: "The newer one." });
		queue.begin(older);
		await time.advance(60);
		queue.begin(newer);
		expect(failed).toEqual([`${older.key}: cancelled before sending: a newer nudge replaced it`]);
		expect(time.pending()).toEqual([100]);
		await time.advance(99);
		expect(api.prompts).toHaveLength(0);
		await time.advance(1);
		expect(api.prompts.map((call) => call.parts[0]?.text)).toEqual(["The newer one."]);
		queue.close("test over");
	});

	it("marks its part as boulder's: synthetic, with the key; an answer is shown but never sent to the model", () => {
		expect(nudgePart({ key: "k", text: "t" })).toEqual({
			type: "text",
			text: "t",
			synthetic: true,
			metadata: { boulder: { kind: "nudge", key: "k" } },
		});
		expect(answerPart("a")).toEqual({
			type: "text",
			text: "a",
			ignored: true,
			metadata: { boulder: { kind: "answer" } },
		});
	});
});
