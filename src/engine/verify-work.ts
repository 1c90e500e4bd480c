/**
 * The completion gate: runs a work's verify commands in its worktree, records
 * the result on the work, and marks the work completed once the policy says
 * so. The policy decides when to verify and what a failure means.
 */
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import type { VerifyResult } from "../core/turns.js";
import type { WorkView } from "../core/work-view.js";
import type { Store } from "../state/store.js";
import type { Work, WorksFile } from "../state/works.js";
import type { Runner } from "./runner.js";

export type VerifyOutcome = VerifyResult;

export interface VerifyDeps {
	store: Store;
	config: Config;
	clock: Clock;
	runner: Runner;
}

/** Runs the commands in order; the first failure (or timeout) is the outcome. */
export async function runVerify(deps: VerifyDeps, work: Work, view: WorkView): Promise<VerifyOutcome> {
	const timeoutMs = work.verifyTimeoutMs ?? deps.config.verifyTimeoutMs;
	let outcome: VerifyOutcome = { fingerprint: view.fingerprint, passed: true, command: null, exitCode: 0, output: "" };
	for (const command of view.verify) {
		const run = await deps.runner.run(command, { cwd: deps.store.worktree, timeoutMs });
		if (run.exitCode !== 0) {
			const output = run.timedOut ? `${run.output}\n(timed out after ${timeoutMs} ms)` : run.output;
			outcome = { fingerprint: view.fingerprint, passed: false, command, exitCode: run.exitCode, output };
			break;
		}
	}
	const at = deps.clock.now();
	await deps.store.updateWorks((current) => {
		if (current.kind !== "ok" || !current.value.works[work.id]) return { result: undefined, next: null };
		const file = current.value;
		const { fingerprint: _, ...verification } = outcome;
		const updated = { ...(file.works[work.id] as Work), lastVerification: { ...verification, at } };
		return { result: undefined, next: { ...file, works: { ...file.works, [work.id]: updated } } };
	});
	return outcome;
}

/** Marks the work completed with its end time and elapsed time, once. */
export async function completeWork(deps: Pick<VerifyDeps, "store" | "clock">, workId: string): Promise<void> {
	await deps.store.updateWorks((current) => {
		const work = current.kind === "ok" ? current.value.works[workId] : undefined;
		if (current.kind !== "ok" || !work || work.status === "completed") return { result: undefined, next: null };
		const now = deps.clock.now();
		const done: Work = { ...work, status: "completed", endedAt: now, elapsedMs: Math.max(0, now - work.startedAt) };
		const file: WorksFile = { ...current.value, works: { ...current.value.works, [workId]: done } };
		return { result: undefined, next: file };
	});
}
