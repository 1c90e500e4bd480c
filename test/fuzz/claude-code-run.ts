/**
 * The Claude Code fuzzers' run, shared by the in-process one and the one
 * that starts the installed hook command: the worktrees inputs land in, the
 * oracle every answer is judged by, the tallies that prove the interesting
 * paths were reached, and the report.
 */
import { realpathSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { scopeKey } from "../../src/core/scope-key.js";
import { FileStore } from "../../src/state/file-store.js";
import {
	type Fixtures,
	GOOD_IDS,
	goodProjectOf,
	type HookCase,
	makeFixtures,
	type Places,
	releaseFifos,
	stdinBytes,
	transcriptClass,
	wellFormedFor,
} from "./claude-code-inputs.js";
import { FULL, fuzzTempBase, Hang, SEED, sketch } from "./scale.js";

/** The run stops early after this many findings: they are the report, more would only repeat them. */
export const MAX_FINDINGS = 25;

export interface Outcome {
	stdout: string;
	ms: number;
	/** A throw that escaped, a `Hang`, or (for a process) its exit when it was not a clean 0. */
	error: unknown;
}

export type Runner = (kase: HookCase, places: Places) => Promise<Outcome>;

export interface Finding {
	what: string;
	event: string | undefined;
	label: string;
	input: string;
}

interface Tally {
	calls: number;
	blocks: number;
	systemMessages: number;
	maxMs: number;
}

/** The fixtures, the environment every call gets, and fresh worktrees on demand. */
export class FuzzWorld {
	private worlds = 0;
	private readonly real: Set<string>;
	private readonly mutated: Set<string>;
	private readonly hostileKind: Map<string, string>;
	readonly env: NodeJS.ProcessEnv;

	private constructor(readonly fixtures: Fixtures) {
		this.real = new Set(fixtures.real.map((file) => realpathSync(file)));
		this.mutated = new Set(fixtures.mutated.map((file) => realpathSync(file)));
		this.hostileKind = new Map(fixtures.hostile.map((hostile) => [hostile.path, hostile.kind]));
		this.env = {
			HOME: path.join(fixtures.root, "home"),
			XDG_CONFIG_HOME: path.join(fixtures.root, "config"),
			XDG_CACHE_HOME: path.join(fixtures.root, "cache"),
			BOULDER_STATE_HOME: path.join(fixtures.root, "state"),
		};
	}

	static async create(prefix: string): Promise<FuzzWorld> {
		const root = realpathSync(await mkdtemp(path.join(fuzzTempBase(), prefix)));
		return new FuzzWorld(await makeFixtures(root, SEED));
	}

	/** A git worktree with a good config (and a folder inside it), one whose config is broken, and a folder in no project. */
	async places(): Promise<Places> {
		const world = path.join(this.fixtures.root, "worlds", String(this.worlds++));
		const good = path.join(world, "good");
		const badConfig = path.join(world, "bad");
		const outside = path.join(world, "outside");
		await mkdir(path.join(good, ".git"), { recursive: true });
		await mkdir(path.join(good, "sub", "deep"), { recursive: true });
		await mkdir(path.join(badConfig, ".git"), { recursive: true });
		await mkdir(outside, { recursive: true });
		// A config that is no config: bad values, not JSON, not an object, or a FIFO, a device or a folder in its place.
		const config = path.join(badConfig, "boulder.config.json");
		const bad: Array<() => Promise<void>> = [
			() => writeFile(config, '{"stagnationLimit":"three"}'),
			() => symlink(this.fixtures.fifos[0] as string, config),
			() => symlink("/dev/zero", config),
			() => writeFile(config, "{ not json"),
			() => symlink(path.join(this.fixtures.root, "transcripts"), config),
			() => writeFile(config, "[]"),
			() => writeFile(config, '{"budgets":{"autoTurns":-1}}'),
		];
		// The first worktree of every run (numbered 1) gets the FIFO.
		await (bad[this.worlds % bad.length] as () => Promise<void>)();
		return { fixtures: this.fixtures, good, goodSub: path.join(good, "sub", "deep"), badConfig, outside };
	}

	async drop(places: Places): Promise<void> {
		await rm(path.dirname(places.good), { recursive: true, force: true });
	}

	async close(): Promise<void> {
		releaseFifos(this.fixtures);
		await rm(this.fixtures.root, { recursive: true, force: true });
	}

	/**
	 * Why a block was wrong, or null when the input may be continued: a
	 * well-formed Stop, of a root session, in the good worktree, with a real
	 * transcript (or a damaged real one), whose list has an open item.
	 */
	async judgeBlock(kase: HookCase, places: Places): Promise<string | null> {
		if (kase.event !== "Stop") return `a block answered ${kase.event ?? "no event"}`;
		const input = wellFormedFor(stdinBytes(kase.stdin, kase.event, places), kase.event);
		if (!input) return "a block for input that is not a well-formed Stop";
		if (typeof input.agent_id === "string" && input.agent_id.trim() !== "") return "a block for a subagent's Stop";
		if (transcriptClass(input.transcript_path, this.fixtures, this.real, this.mutated) === "hostile") {
			const kind = this.hostileKind.get(String(input.transcript_path)) ?? "a path that is no transcript";
			return `a block with an unreadable transcript (${kind})`;
		}
		const project = goodProjectOf(kase, input, places);
		if (project === null) return "a block outside the worktree with a good config";
		const key = scopeKey({ kind: "session", harness: "claude-code", sessionId: input.session_id as string });
		const read = key === null ? null : await new FileStore(project).readScope(key);
		const open =
			read?.kind === "ok" && read.value.todos?.some((todo) => ["pending", "in_progress"].includes(todo.status));
		return open ? null : "a block for a session whose list has no open item";
	}

	/**
	 * Why resume context was wrong, or null: only a well-formed `resume` or
	 * `compact` SessionStart of a root session, in the good worktree, whose
	 * list has an open item, is told where its work stands.
	 */
	async judgeContext(kase: HookCase, places: Places): Promise<string | null> {
		if (kase.event !== "SessionStart") return `resume context answered ${kase.event ?? "no event"}`;
		const input = wellFormedFor(stdinBytes(kase.stdin, kase.event, places), kase.event);
		if (!input) return "resume context for input that is not a well-formed SessionStart";
		if (input.source !== "resume" && input.source !== "compact")
			return `resume context on a ${String(input.source)} start`;
		if (typeof input.agent_id === "string" && input.agent_id.trim() !== "") return "resume context for a subagent";
		const project = goodProjectOf(kase, input, places);
		if (project === null) return "resume context outside the worktree with a good config";
		const key = scopeKey({ kind: "session", harness: "claude-code", sessionId: input.session_id as string });
		const read = key === null ? null : await new FileStore(project).readScope(key);
		const open =
			read?.kind === "ok" && read.value.todos?.some((todo) => ["pending", "in_progress"].includes(todo.status));
		return open ? null : "resume context for a session whose list has no open item";
	}
}

/**
 * Stdout is nothing, or one JSON object of the fields Claude Code reads from
 * these hooks; `hookSpecificOutput` only as context for the event that ran
 * (a resumed session's SessionStart).
 */
export function outputProblem(stdout: string, event?: string): string | null {
	if (stdout === "") return null;
	let value: unknown;
	try {
		value = JSON.parse(stdout);
	} catch {
		return `stdout is not JSON: ${sketch(stdout)}`;
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return `stdout is not an object: ${sketch(stdout)}`;
	}
	const record = value as Record<string, unknown>;
	const extra = Object.keys(record).filter(
		(key) => !["decision", "reason", "systemMessage", "hookSpecificOutput"].includes(key),
	);
	if (extra.length > 0) return `stdout has fields Claude Code does not read: ${extra.join(", ")}`;
	if (record.hookSpecificOutput !== undefined) {
		const specific = record.hookSpecificOutput as Record<string, unknown> | null;
		const context =
			typeof specific === "object" &&
			specific !== null &&
			specific.hookEventName === event &&
			typeof specific.additionalContext === "string" &&
			specific.additionalContext !== "";
		if (!context) return `stdout's hookSpecificOutput is not context for ${event ?? "no event"}: ${sketch(stdout)}`;
	}
	const block = record.decision === "block" && typeof record.reason === "string" && record.reason !== "";
	if (record.decision !== undefined && !block)
		return `stdout's decision is not a block with a reason: ${sketch(stdout)}`;
	return null;
}

/** Runs cases, judges each answer, and keeps the figures and findings. */
export class FuzzRun {
	readonly findings: Finding[] = [];
	readonly tallies = new Map<string, Tally>();
	readonly labels = new Map<string, { n: number; ms: number }>();
	readonly hostileAtStop = new Map<string, number>();
	controls = 0;
	controlBlocks = 0;
	sweeps = 0;
	maxMs = 0;
	slowest = "";

	constructor(
		readonly world: FuzzWorld,
		private readonly runner: Runner,
	) {}

	tally(event: string | undefined): Tally {
		const key = event ?? "(none)";
		let tally = this.tallies.get(key);
		if (!tally) {
			tally = { calls: 0, blocks: 0, systemMessages: 0, maxMs: 0 };
			this.tallies.set(key, tally);
		}
		return tally;
	}

	get full(): boolean {
		return this.findings.length >= MAX_FINDINGS;
	}

	async check(kase: HookCase, places: Places): Promise<Record<string, unknown> | null> {
		const outcome = await this.runner(kase, places);
		const tally = this.tally(kase.event);
		tally.calls++;
		tally.maxMs = Math.max(tally.maxMs, outcome.ms);
		if (outcome.ms > this.maxMs) {
			this.maxMs = outcome.ms;
			this.slowest = `${kase.event} ${kase.label}`;
		}
		const label = this.labels.get(kase.label) ?? { n: 0, ms: 0 };
		this.labels.set(kase.label, { n: label.n + 1, ms: label.ms + outcome.ms });
		const note = (what: string) =>
			this.findings.push({ what, event: kase.event, label: kase.label, input: inputOf(kase, places) });
		if (outcome.error instanceof Hang) note(`hang: ${outcome.error.message}`);
		else if (outcome.error !== null) note(`threw: ${sketch(String(outcome.error))}`);
		const problem = outputProblem(outcome.stdout, kase.event);
		if (problem) note(problem);
		const answer = problem || outcome.stdout === "" ? null : (JSON.parse(outcome.stdout) as Record<string, unknown>);
		if (answer?.decision === "block") {
			tally.blocks++;
			const wrong = await this.world.judgeBlock(kase, places);
			if (wrong) note(wrong);
		}
		if (answer?.hookSpecificOutput !== undefined) {
			const wrong = await this.world.judgeContext(kase, places);
			if (wrong) note(wrong);
		}
		if (answer?.systemMessage !== undefined) tally.systemMessages++;
		return answer;
	}

	/**
	 * Each hostile transcript (all of them, or those `only` names) at a Stop
	 * that a real transcript would let continue: a fresh user turn, an open
	 * list. Then the same Stop with a real transcript, which must block: the
	 * positive control that keeps the fuzzer from passing by never reaching
	 * the nudge.
	 */
	async sweep(places: Places, only?: (kind: string) => boolean): Promise<void> {
		this.sweeps++;
		const { fixtures } = this.world;
		for (const [n, hostile] of fixtures.hostile.entries()) {
			if (only && !only(hostile.kind)) continue;
			const session = GOOD_IDS[n % GOOD_IDS.length] as string;
			const base = { session_id: session, transcript_path: fixtures.real[0], cwd: places.good };
			const todos = [
				{ content: "One", status: "pending", activeForm: "One" },
				{ content: "Two", status: "in_progress", activeForm: "Two" },
			];
			const list = { ...base, hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos } };
			await this.check(plain("PostToolUse", list, places, "sweep"), places);
			await this.check(plain("UserPromptSubmit", prompt(base, "Go."), places, "sweep"), places);
			const stop = await this.check(plain("Stop", stopOf(session, hostile.path, places), places, "sweep"), places);
			this.hostileAtStop.set(hostile.kind, (this.hostileAtStop.get(hostile.kind) ?? 0) + 1);
			if (stop?.decision === "block") continue;
			await this.check(plain("UserPromptSubmit", prompt(base, "Go on."), places, "sweep"), places);
			const real = n % fixtures.real.length;
			const control = stopOf(session, fixtures.real[real] as string, places, fixtures.realTexts[real]);
			this.controls++;
			if ((await this.check(plain("Stop", control, places, "control"), places))?.decision === "block") {
				this.controlBlocks++;
			}
		}
	}

	report(): string {
		const lines = [`seed ${SEED}${FULL ? " (full counts)" : ""}`];
		for (const [event, tally] of this.tallies) {
			const ms = tally.maxMs.toFixed(0);
			lines.push(
				`${event}: ${tally.calls} calls, ${tally.blocks} blocks, ${tally.systemMessages} system messages, slowest ${ms} ms`,
			);
		}
		lines.push(
			`slowest call ${this.maxMs.toFixed(0)} ms (${this.slowest}); controls ${this.controlBlocks}/${this.controls} blocked`,
		);
		const labels = [...this.labels].map(([label, { n, ms }]) => `${label} ${n} (${(ms / 1000).toFixed(1)} s)`);
		lines.push(`inputs: ${labels.join(", ")}`);
		lines.push(`findings: ${this.findings.length}`);
		for (const finding of this.findings) {
			lines.push(`FINDING ${finding.what} — ${finding.event} (${finding.label}): ${finding.input}`);
		}
		return lines.join("\n");
	}
}

function prompt(base: Record<string, unknown>, text: string): Record<string, unknown> {
	return { ...base, hook_event_name: "UserPromptSubmit", prompt: text };
}

function stopOf(sessionId: string, transcript: string, places: Places, last?: string): Record<string, unknown> {
	return {
		session_id: sessionId,
		transcript_path: transcript,
		cwd: places.good,
		hook_event_name: "Stop",
		stop_hook_active: false,
		...(last === undefined ? {} : { last_assistant_message: last }),
	};
}

function plain(event: string, value: unknown, places: Places, label: string): HookCase {
	return {
		event,
		stdin: { kind: "text", text: JSON.stringify(value) },
		projectDir: places.good,
		processCwd: places.good,
		streams: "ok",
		label,
	};
}

function inputOf(kase: HookCase, places: Places): string {
	if (kase.stdin.kind === "huge") return `huge input: ${kase.stdin.huge}`;
	return sketch(stdinBytes(kase.stdin, kase.event ?? "Stop", places).toString("utf8"));
}
