/**
 * `boulder why` in plain words: the wording of every reason code, local
 * times (with the date when not today), and real decisions made by the
 * engine on a real worktree.
 */
import { describe, expect, it } from "vitest";
import type { DecisionRecord } from "../../src/core/decision-record.js";
import { EVENT_REASONS, explainsDecisions } from "../../src/core/event-reasons.js";
import { SKIP_REASONS } from "../../src/core/policy.js";
import type { Engine, SessionRef } from "../../src/engine/engine.js";
import { renderWhy } from "../../src/present/render/why.js";
import { plainStyle as plainColors } from "../../src/present/style.js";
import { hasWording } from "../../src/present/why-text.js";
import { PLAN, sandbox, todayAt } from "./helpers.js";

const NOW = todayAt(15, 0);

function record(fields: Partial<DecisionRecord> & Pick<DecisionRecord, "kind" | "reason" | "detail">): DecisionRecord {
	return {
		v: 1,
		at: todayAt(14, 2),
		worktree: "/w",
		scope: "session.claude-code.s1",
		harness: "claude-code",
		session: "s1",
		work: null,
		figures: { open: 3, done: 4, blocked: 0, total: 7, stagnation: 0 },
		...fields,
	};
}

const line = (fields: Parameters<typeof record>[0]) => renderWhy([record(fields)], NOW, plainColors);

describe("why wording", () => {
	it("has words for every event the engine, the store and the CLI log", () => {
		for (const reason of Object.keys(EVENT_REASONS)) expect(hasWording("event", reason), reason).toBe(true);
		expect(hasWording("event", "made-up-event")).toBe(false);
	});

	it("shows only the events that explain a decision", () => {
		expect(explainsDecisions("user-aborted")).toBe(true);
		expect(explainsDecisions("compaction")).toBe(false);
		expect(explainsDecisions("made-up-event")).toBe(false);
	});

	it("has words for every reason code the policy can give", () => {
		for (const reason of [...SKIP_REASONS, "continue", "verify-failed", "verify", "complete"]) {
			expect(hasWording("skip", reason), reason).toBe(true);
		}
	});

	const cases: Array<[string, Parameters<typeof record>[0], string]> = [
		[
			"disabled",
			{
				kind: "skip",
				reason: "disabled",
				detail: "continuation is stopped in this worktree (by `boulder stop`); `boulder go` turns it on",
			},
			"14:02  did not continue: continuation is stopped in this worktree (by `boulder stop`); `boulder go` turns it on",
		],
		[
			"not-eligible",
			{ kind: "skip", reason: "not-eligible", detail: "the active work belongs to session s9" },
			"14:02  did not continue: this session is not the one to continue: the active work belongs to session s9",
		],
		[
			"no-open-work (blocked)",
			{
				kind: "skip",
				reason: "no-open-work",
				detail: "nothing left that can be done: 2 blocked, waiting on you",
				figures: { open: 0, done: 5, blocked: 2, total: 7 },
			},
			"14:02  did not continue: nothing left that can be done; 2 blocked item(s) wait on you",
		],
		[
			"no-open-work (no list)",
			{ kind: "skip", reason: "no-open-work", detail: "there is no todo list or plan", figures: { total: 0 } },
			"14:02  did not continue: no open items: there is no todo list or plan",
		],
		[
			"user-aborted (Esc)",
			{ kind: "skip", reason: "user-aborted", detail: "the user aborted the turn; waiting for their next message" },
			"14:02  did not continue: the run was interrupted; waiting for your next message",
		],
		[
			"user-aborted (interrupt)",
			{
				kind: "skip",
				reason: "user-aborted",
				detail: "the user interrupted the agent; waiting for their next message",
			},
			"14:02  did not continue: the user interrupted the agent; waiting for your next message",
		],
		[
			"awaiting-user",
			{ kind: "skip", reason: "awaiting-user", detail: "a permission request is waiting for the user" },
			"14:02  did not continue: the agent is waiting for you: a permission request is waiting for the user",
		],
		[
			"turn-unsafe",
			{ kind: "skip", reason: "turn-unsafe", detail: "how the last turn ended is unknown" },
			"14:02  did not continue: not sure the last turn finished (how the last turn ended is unknown); not continuing blind",
		],
		[
			"context-overflow",
			{ kind: "skip", reason: "context-overflow", detail: "the last turn ran out of context" },
			"14:02  did not continue: the last turn ran out of context; a nudge would fail the same way (compact or start a new session)",
		],
		[
			"background-busy",
			{
				kind: "skip",
				reason: "background-busy",
				detail: "2 background task(s) still running; deciding again when they finish",
			},
			"14:02  did not continue: 2 background task(s) still running; deciding again when they finish",
		],
		[
			"duplicate",
			{ kind: "skip", reason: "duplicate", detail: "a nudge was already sent for this turn" },
			"14:02  did not continue: a nudge was already sent for this turn",
		],
		[
			"backoff",
			{
				kind: "skip",
				reason: "backoff",
				detail: "backing off after 2 failed delivery(s)",
				retryAt: todayAt(14, 3),
			},
			"14:02  did not continue: backing off after 2 failed delivery(s); trying again after 14:03",
		],
		[
			"budget-turns",
			{ kind: "skip", reason: "budget-turns", detail: "the episode used all 40 automatic turns" },
			"14:02  stopped: the episode used all 40 automatic turns; your next message starts a new episode",
		],
		[
			"budget-tokens",
			{ kind: "skip", reason: "budget-tokens", detail: "the episode spent 4000001 of 4000000 tokens" },
			"14:02  stopped: the episode spent 4000001 of 4000000 tokens; your next message starts a new episode",
		],
		[
			"budget-time",
			{ kind: "skip", reason: "budget-time", detail: "the episode ran longer than 180 min" },
			"14:02  stopped: the episode ran longer than 180 min; your next message starts a new episode",
		],
		[
			"stagnation",
			{
				kind: "skip",
				reason: "stagnation",
				detail: "the last 3 nudges brought no progress",
				figures: { stagnation: 3 },
			},
			"14:02  stopped: the last 3 nudges brought no progress",
		],
		[
			"continue",
			{
				kind: "inject",
				reason: "continue",
				detail: "3 item(s) still open; continuing with: Write the tests",
			},
			"14:02  continued: 3 item(s) still open; continuing with: Write the tests",
		],
		[
			"verify-failed",
			{
				kind: "inject",
				reason: "verify-failed",
				detail: "every item is done but `npm test` fails; sending the failure back",
			},
			"14:02  verify failed: every item is done but `npm test` fails; sent the failure back to the agent",
		],
		[
			"verify",
			{ kind: "verify", reason: "verify", detail: "every item is done; running 1 verify command(s)" },
			"14:02  checking: every item is done; running 1 verify command(s)",
		],
		[
			"complete",
			{ kind: "complete", reason: "complete", detail: "every item is done and verified" },
			"14:02  completed: every item is done and verified",
		],
	];

	for (const [name, fields, expected] of cases) {
		it(`says ${name} in plain words`, () => {
			expect(line(fields)).toBe(expected);
		});
	}

	it("falls back to the engine's words for a code it does not know", () => {
		expect(line({ kind: "skip", reason: "from-the-future", detail: "a newer boulder said so" })).toBe(
			"14:02  skip: a newer boulder said so",
		);
	});

	it("dates lines that are not from today, and names sessions when several speak", () => {
		const yesterday = new Date(todayAt(9, 30));
		yesterday.setDate(yesterday.getDate() - 1);
		const day = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, "0")}-${String(yesterday.getDate()).padStart(2, "0")}`;
		const text = renderWhy(
			[
				record({ kind: "skip", reason: "duplicate", detail: "", at: yesterday.getTime() }),
				record({ kind: "skip", reason: "duplicate", detail: "", session: "s2" }),
			],
			NOW,
			plainColors,
		);
		expect(text.split("\n")).toEqual([
			`${day} 09:30  did not continue: a nudge was already sent for this turn  [claude-code:s1]`,
			"14:02  did not continue: a nudge was already sent for this turn  [claude-code:s2]",
		]);
	});
});

describe("boulder why on a real worktree", () => {
	async function rollUntilStagnation(engine: Engine, ref: SessionRef, advance: () => void) {
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		for (let nudge = 0; nudge < 10; nudge++) {
			advance();
			const idle = await engine.onIdle(ref);
			if (idle.kind !== "inject" || !idle.key) return idle;
			await engine.delivered(ref, idle.key);
			await engine.turnEnded(ref, { outcome: "end" });
		}
		throw new Error("no stagnation after 10 nudges");
	}

	it("tells an Esc, the nudges and the stagnation stop, one line each", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const ref = { harness: "claude-code", sessionId: "s-1" };
		const engine = await box.engine();
		await engine.turnStarted(ref, "user");
		await engine.sessionEvent(ref, { type: "interrupt" });
		expect((await engine.onIdle(ref)).reason).toBe("user-aborted");
		box.clock.set(todayAt(14, 5));
		const last = await rollUntilStagnation(engine, ref, () => box.clock.advance(60_000));
		expect(last.reason).toBe("stagnation");

		const ran = await box.run(["why", "-n", "3"]);
		expect(ran.code).toBe(0);
		expect(ran.stdout.trimEnd().split("\n")).toEqual([
			"14:07  continued: 2 item(s) still open; continuing with: Write the status command",
			"14:08  continued: 2 item(s) still open; continuing with: Write the status command",
			"14:09  stopped: the last 3 nudges brought no progress",
		]);

		const all = (await box.run(["why", "--session", "s-1", "-n", "50"])).stdout;
		expect(all).toContain("14:02  did not continue: the user interrupted the agent; waiting for your next message");
		const unknown = await box.run(["why", "--session", "someone-else"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("Known: s-1 (claude-code)");

		const json = JSON.parse((await box.run(["why", "-n", "1", "--json"])).stdout);
		expect(json).toEqual([
			expect.objectContaining({
				reason: "stagnation",
				headline: "stopped",
				text: "the last 3 nudges brought no progress",
				session: "s-1",
				work: "ship-the-cli",
			}),
		]);
	});
});
