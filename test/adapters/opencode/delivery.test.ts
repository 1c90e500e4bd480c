import { describe, expect, it } from "vitest";
import type { PromptRoute } from "../../../src/adapters/opencode/api.js";
import { answerPart, Deliveries, type Nudge, nudgePart } from "../../../src/adapters/opencode/delivery.js";
import { CLAIM_LINGER_MS, claimKey, releaseClaim } from "../../../src/adapters/opencode/shared.js";
import { FakeApi, sleep, until } from "./helpers.js";

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

function deliveries(api: FakeApi, failed: string[] = []) {
	return new Deliveries({
		api,
		confirmMs: 50,
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
		const one = nudge();
		const a = deliveries(api);
		const b = deliveries(api);
		expect(a.begin(one)).toBe(true);
		expect(b.begin({ ...one })).toBe(false);
		expect(a.begin({ ...one })).toBe(false);
		await until(() => api.prompts.length === 1);
		await sleep(20);
		expect(api.prompts).toHaveLength(1);
		a.close("test over");
		b.close("test over");
	});
});

describe("a delivery", () => {
	it("is confirmed by the nudge's own message appearing, and only once", async () => {
		const api = new FakeApi();
		const failed: string[] = [];
		const queue = deliveries(api, failed);
		const one = nudge();
		queue.begin(one);
		await until(() => api.prompts.length === 1);
		expect(queue.confirm(one.key)).toBe(true);
		expect(queue.confirm(one.key)).toBe(false);
		await sleep(80);
		expect(failed).toEqual([]);
	});

	it("reports a prompt that never appears, and a prompt OpenCode refuses, as not delivered", async () => {
		const api = new FakeApi();
		const failed: string[] = [];
		const queue = deliveries(api, failed);
		const silent = nudge();
		queue.begin(silent);
		await until(() => failed.length === 1);
		expect(failed[0]).toMatch(/did not appear in the session within 50 ms/);
		expect(queue.confirm(silent.key)).toBe(false);

		api.promptError = new Error("HTTP 400");
		queue.begin(nudge());
		await until(() => failed.length === 2);
		expect(failed[1]).toMatch(/OpenCode did not accept the prompt: HTTP 400/);
	});

	it("cancels a countdown before anything is sent, and a newer nudge replaces an older one", async () => {
		const api = new FakeApi();
		const failed: string[] = [];
		const queue = deliveries(api, failed);
		const first = nudge({ countdownMs: 100 });
		queue.begin(first);
		expect(queue.counting(first.ref.sessionId)).toBe(true);
		expect(queue.cancel(first.ref.sessionId, "the user wrote")).toBe(true);
		expect(queue.cancel(first.ref.sessionId, "again")).toBe(false);
		await sleep(130);
		expect(api.prompts).toHaveLength(0);
		expect(failed).toEqual([`${first.key}: cancelled before sending: the user wrote`]);
		expect(api.toasts.map((toast) => toast.message)).toEqual([
			"continuing in 1s — 2 items left (/boulder stop cancels)",
		]);
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
