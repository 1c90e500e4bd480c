/**
 * `boulder-agent/sdk/claude`: boulder inside a program that drives Claude
 * Code through the Claude Agent SDK (`query({ prompt, options: { hooks } })`).
 * `boulderHooks()` returns the `Options.hooks` record: the SDK calls these
 * callbacks in the program's own process, so an event costs the engine's
 * work alone, never a process start. Every event means what it means to
 * the command hooks `boulder install claude-code` writes (the same
 * `handleHook`), on the same state, decision log and `boulder why`.
 *
 * The same record fits the SDKs that copied Claude's hook shape (Factory
 * Droid's `DroidHooks`, Tencent CodeBuddy's `hooks`): `docs/sdk.md` names
 * their event-name differences; `test/harnesses/sdk-types-compat.ts` checks
 * the fit by type.
 *
 * Types are boulder's own (structural, below): boulder does not depend on the
 * SDK at run time or at build time. The type test checks them against the
 * pinned SDK's declarations.
 *
 * Contract: no callback throws into the SDK or rejects. Whatever goes wrong
 * (a bad config, an unreadable state file, a bug) is recorded in the decision
 * log where there is one, and the agent is let stop (`{}`).
 */

import { FILE_TOOLS_MATCHER, SUBAGENT_TOOLS_MATCHER, TODO_TOOLS_MATCHER } from "../adapters/claude-code/dialect.js";
import { HARNESS, type HookEvent, handleHook, parseHookInput } from "../adapters/claude-code/events.js";
import { activeGoal } from "../adapters/claude-code/goal.js";
import { readTurn } from "../adapters/claude-code/transcript.js";
import type { HookAnswer } from "../adapters/shared/hook-answer.js";
import { BoulderError } from "../core/errors.js";
import type { Engine, SessionRef } from "../engine/engine.js";
import { type EngineSource, fileEngines, recordQuietly } from "./engines.js";

/**
 * The fields of an SDK hook input boulder reads (the SDK's `HookInput`
 * carries these and more). The rest of the input is read as it comes.
 */
export interface ClaudeHookInput {
	hook_event_name: string;
	session_id: string;
	cwd?: string;
	transcript_path?: string;
}

/** What a boulder callback answers: the SDK's `SyncHookJSONOutput`, in the few forms boulder uses. */
export interface ClaudeHookOutput {
	/** `"block"` on Stop: the agent goes on, with `reason` as its next message. */
	decision?: "block";
	reason?: string;
	/** Shown to the user (the SDK's program), never to the model. */
	systemMessage?: string;
	hookSpecificOutput?:
		| {
				hookEventName: "PreToolUse";
				permissionDecision?: "deny";
				permissionDecisionReason?: string;
				additionalContext?: string;
		  }
		| { hookEventName: "PostToolUse"; additionalContext?: string }
		| { hookEventName: "SessionStart"; additionalContext?: string };
}

/** One callback, as the SDK calls it: the input, the tool call's id, and the SDK's abort signal for this call. */
export type ClaudeHookCallback = (
	input: ClaudeHookInput,
	toolUseID: string | undefined,
	options: { signal: AbortSignal },
) => Promise<ClaudeHookOutput>;

/** The SDK's `HookCallbackMatcher`: callbacks for the tools `matcher` names (a regular expression), or for every event. */
export interface ClaudeHookMatcher {
	matcher?: string;
	hooks: ClaudeHookCallback[];
	/** Seconds the SDK waits for the callbacks before it goes on without them. */
	timeout?: number;
}

/** The events boulder answers: the record for `Options.hooks` (merge your own matchers into it freely). */
export type BoulderClaudeHooks = Record<
	| "SessionStart"
	| "UserPromptSubmit"
	| "PreToolUse"
	| "PostToolUse"
	| "Stop"
	| "SubagentStop"
	| "StopFailure"
	| "PreCompact",
	ClaudeHookMatcher[]
>;

/** What `boulderHooks()` is told: where the project is, the plan to roll, the run's abort signal. */
export interface BoulderHooksOptions {
	/**
	 * The project whose state boulder keeps (its `.boulder/`, its config
	 * file). Default: each event's `cwd`, which is the SDK's `Options.cwd`.
	 */
	cwd?: string;
	/**
	 * A Markdown plan to roll, relative to `cwd` (or absolute), started the
	 * way `boulder start PLAN.md` starts it, before the first event: its
	 * unchecked items are the work, its `verify:` front matter the completion
	 * gate. Without it the agent's own todo list is the work. Needs `cwd`.
	 */
	plan?: string;
	/**
	 * Aborts the run (the signal of the `AbortController` given to the SDK):
	 * each session these hooks have seen is recorded as aborted by the user,
	 * which holds until the next real prompt, across restarts, as an Esc does.
	 */
	signal?: AbortSignal;
	/** Where the user's config and state folders are found. Default: `process.env`. */
	env?: NodeJS.ProcessEnv;
	/** Seconds the SDK gives each callback. Default 30 (Stop: 60, which may run verify commands). */
	timeoutSeconds?: number;
	/** Opens the engine for a folder; tests pass their own. */
	engines?: EngineSource;
}

const DEFAULT_TIMEOUT_SECONDS = 30;
const STOP_TIMEOUT_SECONDS = 60;

/**
 * The `Options.hooks` of the Claude Agent SDK, for boulder:
 * `query({ prompt, options: { hooks: boulderHooks({ cwd }) } })`.
 *
 * - `Stop`: the engine's decision; a nudge is `{ decision: "block", reason }`.
 * - `SubagentStop`: recorded, never nudged.
 * - `UserPromptSubmit`: a turn, with its provenance from `source` (`user`,
 *   `sdk`: the user's; `system`, `loop_wakeup`, `schedule_wakeup`,
 *   `poll_event`: the harness's, which opens no new episode).
 * - `StopFailure`: an API error (backoff) or a context overflow.
 * - `PreToolUse` (file tools): orchestrate mode and todo hygiene;
 *   `PostToolUse` (todo and subagent tools): the agent's list, subagent results.
 * - `SessionStart`: a resumed or compacted session is told where its work stands.
 * - `PreCompact`: the compaction is noted.
 */
export function boulderHooks(options: BoulderHooksOptions = {}): BoulderClaudeHooks {
	const engines = options.engines ?? fileEngines(options.env ?? process.env);
	const seen = new Map<string, SessionRef & { folder: string }>();
	const started = options.plan === undefined ? null : planStart(engines, options);
	const aborted = () => options.signal?.aborted === true;
	if (options.signal) {
		const signal = options.signal;
		const onAbort = () => void recordAborts(engines, [...seen.values()]);
		if (signal.aborted) queueMicrotask(onAbort);
		else signal.addEventListener("abort", onAbort, { once: true });
	}
	const callback =
		(event: HookEvent): ClaudeHookCallback =>
		async (input) => {
			const folder = options.cwd ?? (typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : process.cwd());
			return answerEvent(event, input, folder, { engines, seen, started, aborted });
		};
	const group = (event: HookEvent, matcher?: string, timeout = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) => [
		{ ...(matcher ? { matcher } : {}), hooks: [callback(event)], timeout },
	];
	return {
		SessionStart: group("SessionStart"),
		UserPromptSubmit: group("UserPromptSubmit"),
		PreToolUse: group("PreToolUse", FILE_TOOLS_MATCHER),
		PostToolUse: group("PostToolUse", `${TODO_TOOLS_MATCHER}|${SUBAGENT_TOOLS_MATCHER}`),
		Stop: group("Stop", undefined, Math.max(options.timeoutSeconds ?? 0, STOP_TIMEOUT_SECONDS)),
		SubagentStop: group("SubagentStop"),
		StopFailure: group("StopFailure"),
		PreCompact: group("PreCompact"),
	};
}

interface Place {
	engines: EngineSource;
	seen: Map<string, SessionRef & { folder: string }>;
	started: Promise<void> | null;
	aborted(): boolean;
}

async function answerEvent(
	event: HookEvent,
	raw: ClaudeHookInput,
	folder: string,
	place: Place,
): Promise<ClaudeHookOutput> {
	const where = `claude agent sdk ${event} hook`;
	let engine: Engine | null = null;
	let ref: SessionRef | null = null;
	try {
		// The SDK hands over the object it parsed; the command hooks' reader checks it the same way.
		const parsed = parseHookInput(JSON.stringify(raw), event);
		if (!parsed.ok) throw new BoulderError("usage", parsed.problem);
		const input = parsed.input;
		ref = { harness: HARNESS, sessionId: input.sessionId, subagent: input.agentId !== null, agent: input.agentType };
		if (!ref.subagent) place.seen.set(`${folder}\0${input.sessionId}`, { ...ref, folder });
		await place.started;
		engine = await place.engines.open(folder);
		// After an abort the run is over: a Stop that still arrives must not start another turn.
		if (place.aborted() && event === "Stop") {
			await engine.sessionEvent(ref, { type: "abort" });
			return {};
		}
		const answer = await handleHook(input, { engine, readTurn, readGoal: activeGoal });
		return await delivered(answer);
	} catch (error) {
		await recordQuietly(place.engines, folder, engine, ref, where, error);
		return {};
	}
}

/** Returning the answer is the delivery: the SDK hands it to Claude Code at once. */
async function delivered(answer: HookAnswer): Promise<ClaudeHookOutput> {
	if (answer.output === null) return {};
	await answer.written?.();
	return answer.output as ClaudeHookOutput;
}

function planStart(engines: EngineSource, options: BoulderHooksOptions): Promise<void> {
	const cwd = options.cwd;
	const plan = options.plan as string;
	if (cwd === undefined) {
		return Promise.reject(new BoulderError("plan-invalid", `boulderHooks({ plan: "${plan}" }) needs \`cwd\` too`));
	}
	const start = engines.start(cwd, plan);
	// Rejections are seen by each event that awaits it (and recorded there); none goes unhandled.
	start.catch(() => {});
	return start;
}

async function recordAborts(engines: EngineSource, sessions: readonly (SessionRef & { folder: string })[]) {
	for (const { folder, ...ref } of sessions) {
		try {
			const engine = await engines.open(folder);
			await engine.sessionEvent(ref, { type: "abort" });
		} catch (error) {
			await recordQuietly(engines, folder, null, ref, "claude agent sdk abort", error);
		}
	}
}
