/** Builders for engine tests: an engine over a memory or file store, a simulated clock, scripted runners. */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Config, type ConfigInput } from "../../src/core/config.js";
import { Engine, type SessionRef } from "../../src/engine/engine.js";
import { filePlans } from "../../src/engine/plan-files.js";
import type { Runner, RunResult } from "../../src/engine/runner.js";
import { FileStore } from "../../src/state/file-store.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import type { Store } from "../../src/state/store.js";

export const clock = {
	t: Date.UTC(2026, 10, 30, 9, 0, 0),
	now(): number {
		return this.t;
	},
};

export function tick(ms = 1000): void {
	clock.t += ms;
}

export function memoryEngine(config: ConfigInput = {}, runner?: Runner): { engine: Engine; store: MemoryStore } {
	const store = new MemoryStore("/w", { clock });
	return { engine: new Engine({ store, config: Config.parse(config), clock, plans: filePlans, runner }), store };
}

export async function tempWorktree(): Promise<string> {
	return mkdtemp(path.join(os.tmpdir(), "boulder-engine-"));
}

export function fileEngine(
	worktree: string,
	config: ConfigInput = {},
	runner?: Runner,
): { engine: Engine; store: Store } {
	// The trust record lives beside the worktree, never in the user's real state folder.
	const store = new FileStore(worktree, { clock, stateHome: `${worktree}.state` });
	return { engine: new Engine({ store, config: Config.parse(config), clock, plans: filePlans, runner }), store };
}

export async function writePlan(worktree: string, name: string, text: string): Promise<string> {
	const file = path.join(worktree, name);
	await writeFile(file, text);
	return file;
}

/** A runner that answers from a script, one result per call, recording the commands. */
export function scriptedRunner(results: Partial<RunResult>[]): Runner & { commands: string[] } {
	const commands: string[] = [];
	return {
		commands,
		async run(command) {
			commands.push(command);
			const next = results.shift() ?? {};
			return { exitCode: 0, output: "", timedOut: false, ...next };
		},
	};
}

export const main: SessionRef = { harness: "test", sessionId: "ses_main" };
export const other: SessionRef = { harness: "test", sessionId: "ses_other" };

/** One finished agent turn, then the idle that follows it. */
export async function turnThenIdle(engine: Engine, ref: SessionRef, lastAssistantText = "Done.") {
	tick(30_000);
	await engine.turnEnded(ref, { outcome: "end", spend: { input: 1000, output: 200, cacheWrite: 0 } });
	tick(1000);
	return engine.onIdle(ref, { lastAssistantText });
}
