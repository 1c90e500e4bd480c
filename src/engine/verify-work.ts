/**
 * The completion gate: runs a work's verify commands in its worktree, records
 * the result on the work, and marks the work completed once the policy says
 * so. The policy decides when to verify and what a failure means.
 */
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import { eventRecord } from "../core/decision-record.js";
import type { VerifyResult } from "../core/turns.js";
import type { WorkView } from "../core/work-view.js";
import type { Store } from "../state/store.js";
import type { VerifyClaim } from "../state/verify-claims.js";
import type { Work, WorksFile } from "../state/works.js";
import type { Runner } from "./runner.js";

export type VerifyOutcome = VerifyResult;

export interface VerifyDeps {
	store: Store;
	config: Config;
	clock: Clock;
	runner: Runner;
}

/** Slack after the commands' own timeouts before a claim counts as stale whatever its processes do. */
const CLAIM_SLACK_MS = 60_000;

/**
 * Runs the commands in order; the first failure (or timeout) is the outcome.
 * Never beside another run of the same work's verify (another Stop, another
 * process): then nothing runs, and the claim that holds it is the answer.
 */
export async function runVerify(
	deps: VerifyDeps,
	work: Work,
	view: WorkView,
): Promise<VerifyOutcome | { running: VerifyClaim }> {
	const timeoutMs = work.verifyTimeoutMs ?? deps.config.verifyTimeoutMs;
	const until = deps.clock.now() + timeoutMs * Math.max(1, view.verify.length) + CLAIM_SLACK_MS;
	const claim = await deps.store.claimVerify(work.id, until);
	if (!claim.granted) return { running: claim.holder };
	try {
		return await runClaimed(deps, work, view, timeoutMs);
	} finally {
		await deps.store.releaseVerify(work.id);
	}
}

async function runClaimed(deps: VerifyDeps, work: Work, view: WorkView, timeoutMs: number): Promise<VerifyOutcome> {
	let outcome: VerifyOutcome = { fingerprint: view.fingerprint, passed: true, command: null, exitCode: 0, output: "" };
	for (const command of view.verify) {
		const noted: Promise<void>[] = [];
		const run = await deps.runner.run(command, {
			cwd: deps.store.worktree,
			timeoutMs,
			onStart: (group) =>
				noted.push(deps.store.noteVerifyGroup(work.id, group).catch((error) => noteFailed(deps, error))),
		});
		await Promise.all(noted);
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

/** The claim still names this process, which a second Stop respects; the log says what went wrong. */
async function noteFailed(deps: VerifyDeps, error: unknown): Promise<void> {
	const message = error instanceof Error ? error.message : String(error);
	await deps.store
		.appendDecision(
			eventRecord({
				at: deps.clock.now(),
				worktree: deps.store.worktree,
				reason: "error",
				detail: `could not note the verify's process group in its claim: ${message}`,
			}),
		)
		.catch(() => undefined);
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
