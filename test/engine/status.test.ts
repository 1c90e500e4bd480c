/**
 * What `boulder status` shows as a work's last word, through the engine and
 * the real file store: the last decision, or an event that changed where
 * things stand, never a note along the way that would read as the state.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventRecord } from "../../src/core/decision-record.js";
import { EVENT_REASONS, type EventReason } from "../../src/core/event-reasons.js";
import { startWork } from "../../src/engine/works-ops.js";
import { renderStatus } from "../../src/present/render/status.js";
import { plainStyle } from "../../src/present/style.js";
import { clock, fileEngine, main, tempWorktree, tick, turnThenIdle, writePlan } from "./helpers.js";

const PLAN = "# Ship\n\n- [x] Write the parser\n- [ ] Wire the CLI\n- [ ] Release\n";

async function started() {
	const worktree = await tempWorktree();
	await writePlan(worktree, "PLAN.md", PLAN);
	const { engine, store } = fileEngine(worktree);
	const plans = { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") };
	await startWork({ store, clock, plans }, { planPath: "PLAN.md", cwd: worktree, session: main });
	return { engine, store };
}

describe("the last line of `boulder status`", () => {
	it("keeps naming the last decision after the session is given context on coming back", async () => {
		const { engine, store } = await started();
		expect((await turnThenIdle(engine, main)).reason).toBe("continue");
		tick();
		expect(await engine.resumeContext(main, "resume")).not.toBeNull();
		const log = await store.readDecisions();
		expect(log.at(-1)?.reason).toBe("resume-context");

		const status = await engine.worktreeStatus();
		expect(status.works[0]?.lastDecision?.reason).toBe("continue");
		const text = renderStatus({ now: clock.now(), all: false, worktrees: [status], vanished: [] }, plainStyle);
		expect(text).toMatch(/last {6}.*continued: /);
		expect(text).not.toContain("gave context");
	});

	it("names an event that changed where things stand, and a note after it does not hide it", async () => {
		const { engine, store } = await started();
		await turnThenIdle(engine, main);
		const work = (await engine.worktreeStatus()).works[0]?.id ?? null;
		const event = (reason: EventReason, detail: string) => {
			tick();
			return store.appendDecision(eventRecord({ at: clock.now(), worktree: store.worktree, reason, detail, work }));
		};
		await event("work-paused", "paused by `boulder pause`");
		await event("todo-reminder", "8 file changes since the list last changed");

		const status = await engine.worktreeStatus();
		expect(status.works[0]?.lastDecision).toMatchObject({ kind: "event", reason: "work-paused" });
		const text = renderStatus({ now: clock.now(), all: false, worktrees: [status], vanished: [] }, plainStyle);
		expect(text).toContain("paused: paused by `boulder pause`");
		expect(text).not.toContain("reminded");
	});

	it("passes over only the notes along the way: context at a resume, reminders, subagents, warnings, housekeeping", () => {
		const notes = (Object.keys(EVENT_REASONS) as EventReason[]).filter((reason) => !EVENT_REASONS[reason].standing);
		expect(notes.sort()).toEqual(
			[
				"compaction",
				"orchestrator-edit-denied",
				"orchestrator-edit-warned",
				"resume-context",
				"state-migrated",
				"subagent-returned",
				"todo-reminder",
			].sort(),
		);
	});
});
