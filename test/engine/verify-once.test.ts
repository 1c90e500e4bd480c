/**
 * Never two verifies of one work at once: a Stop that comes while another
 * runs the work's verify commands (another hook process, or this one) does
 * not start them beside it; a claim left by a process that is gone does not
 * hold anything up. Real file store; the runner only records what it ran.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Config } from "../../src/core/config.js";
import { Engine, type SessionRef } from "../../src/engine/engine.js";
import { filePlans } from "../../src/engine/plan-files.js";
import type { Runner } from "../../src/engine/runner.js";
import { startWork } from "../../src/engine/works-ops.js";
import { FileStore } from "../../src/state/file-store.js";
import { clock, scriptedRunner, tempWorktree, tick, writePlan } from "./helpers.js";

const PLAN = `---\nverify: ["npm test"]\n---\n# P\n\n- [x] one\n`;

async function started() {
	const worktree = await tempWorktree();
	await mkdir(path.join(worktree, ".git"));
	await writePlan(worktree, "plan.md", PLAN);
	const store = new FileStore(worktree, { clock, stateHome: `${worktree}.state` });
	await startWork({ store, clock, plans: filePlans }, { planPath: "plan.md", cwd: worktree });
	return { worktree, store };
}

/** A runner whose runs end only when the test says so. */
function heldRunner() {
	const runs: string[] = [];
	let finish: () => void = () => {};
	const gate = new Promise<void>((resolve) => {
		finish = resolve;
	});
	let startedRun: () => void = () => {};
	const running = new Promise<void>((resolve) => {
		startedRun = resolve;
	});
	const runner: Runner = {
		async run(command, options) {
			runs.push(command);
			options.onStart?.(process.pid);
			startedRun();
			await gate;
			return { exitCode: 0, output: "", timedOut: false };
		},
	};
	return { runner, runs, finish, running };
}

async function stop(engine: Engine, ref: SessionRef) {
	await engine.turnStarted(ref, "user");
	tick();
	return engine.turnEndedAndIdle(ref, { outcome: "end" }, {}, { deliverNow: true });
}

describe("one verify per work at a time", () => {
	it("does not start a second verify while the first still runs", async () => {
		const { store } = await started();
		const held = heldRunner();
		const engine = new Engine({ store, config: Config.parse({}), clock, plans: filePlans, runner: held.runner });
		const ref: SessionRef = { harness: "claude-code", sessionId: "s1" };

		const first = stop(engine, ref);
		await held.running;
		const second = await stop(engine, ref);
		held.finish();

		expect(second).toMatchObject({ kind: "skip", reason: "background-busy" });
		expect(second.detail).toContain("already running");
		expect(held.runs).toEqual(["npm test"]);
		expect((await first).kind).toBe("complete");
	});

	it("takes over a claim whose process is gone", async () => {
		const { store } = await started();
		await writeClaims(store, {
			p: { pid: 2 ** 22 + 12345, group: null, at: clock.now(), until: clock.now() + 3_600_000 },
		});
		const runner = scriptedRunner([]);
		const engine = new Engine({ store, config: Config.parse({}), clock, plans: filePlans, runner });

		const result = await stop(engine, { harness: "claude-code", sessionId: "s1" });

		expect(runner.commands).toEqual(["npm test"]);
		expect(result.kind).toBe("complete");
	});

	it("respects a live claim of another process, and lets it go once its deadline passed", async () => {
		const { store } = await started();
		const claim = { pid: process.ppid, group: null, at: clock.now(), until: clock.now() + 60_000 };
		await writeClaims(store, { p: claim });
		const runner = scriptedRunner([]);
		const engine = new Engine({ store, config: Config.parse({}), clock, plans: filePlans, runner });
		const ref: SessionRef = { harness: "claude-code", sessionId: "s1" };

		const busy = await stop(engine, ref);
		expect(busy.reason).toBe("background-busy");
		expect(runner.commands).toEqual([]);

		tick(61_000);
		const after = await stop(engine, ref);
		expect(runner.commands).toEqual(["npm test"]);
		expect(after.kind).toBe("complete");
	});

	it("keeps its claims in the user's state folder: a claim that came with the checkout holds nothing back", async () => {
		const { worktree, store } = await started();
		expect(path.relative(store.stateHome, store.paths.verifyClaims).startsWith("..")).toBe(false);
		// The file the claims once lived in, committed naming a live process (as pid 1 is when run as root).
		const live = { pid: process.ppid, group: null, at: clock.now(), until: clock.now() + 3_600_000 };
		await writeFile(
			path.join(worktree, ".boulder", "verify-running.json"),
			JSON.stringify({ schemaVersion: 1, works: { p: live } }),
		);
		const runner = scriptedRunner([]);
		const engine = new Engine({ store, config: Config.parse({}), clock, plans: filePlans, runner });

		const result = await stop(engine, { harness: "claude-code", sessionId: "s1" });

		expect(runner.commands).toEqual(["npm test"]);
		expect(result.kind).toBe("complete");
	});
});

async function writeClaims(store: FileStore, works: Record<string, unknown>): Promise<void> {
	await mkdir(path.dirname(store.paths.verifyClaims), { recursive: true });
	await writeFile(store.paths.verifyClaims, JSON.stringify({ schemaVersion: 1, works }));
}
