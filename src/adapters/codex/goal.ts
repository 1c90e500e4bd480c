/**
 * Codex's own goal mode, read from the end of the session's rollout
 * (`docs/codex-notes.md`, "Its own goals"). An active goal starts a turn
 * whenever the thread goes idle, with no cap, so boulder and the goal must not
 * both push: the Stop hook asks here whether a goal is active and can
 * continue, and the engine stands down (`builtInGoals`). Under `codex exec` a
 * goal never continues, so boulder keeps driving, and the Interrupt exec
 * fires for the goal's aborted turn is not the user's.
 *
 * Contract: never throws for what the file holds; an unreadable file is
 * reported as an error to the caller, which treats it as no goal.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine } from "../command-hook/turn-reader.js";
import { isRecord, nonEmptyText } from "../shared/hook-input.js";

/** How much of the rollout's end is read: a goal that drives the session starts its turns near the end. */
const GOAL_TAIL_BYTES = 1024 * 1024;

type Stated = { objective: string | null; status: string };

interface RolloutTurnStart {
	/** `turn_attribution.turn_trigger`: `"goal"`, `"exec"`, ...; null when not given. */
	trigger: string | null;
	/** Its `token_usage_record` lines so far. */
	modelRequests: number;
}

export interface CodexGoalReading {
	/** The active goal's objective ("a goal" when none is named), or null when no goal is active. */
	goal: string | null;
	/** The last turn's start, or null when the tail holds none. */
	lastTurn: RolloutTurnStart | null;
}

export async function readCodexGoal(file: string, tailBytes = GOAL_TAIL_BYTES): Promise<CodexGoalReading> {
	return goalOfRolloutLines(await readTailLines(file, tailBytes));
}

/**
 * Pure: from rollout lines, oldest first. The newest line stating the goal
 * decides, but a goal's turn newer than it means the goal was active (Codex
 * does not write down every update); the newest named objective names it.
 * Not `newestInTail`, where the first record that decides wins: this reading folds several (the newest turn
 * start and the requests after it, the goal turns and objectives newer than the newest statement).
 */
export function goalOfRolloutLines(lines: readonly string[]): CodexGoalReading {
	let stated: Stated | null | undefined;
	let goalTurn = false;
	let lastTurn: RolloutTurnStart | null = null;
	let requestsAfter = 0;
	let objective: string | null = null;
	for (let index = lines.length - 1; index >= 0 && (stated === undefined || lastTurn === null); index--) {
		const line = lines[index] ?? "";
		if (!line.includes("goal") && !line.includes("task_started") && !line.includes("token_usage_record")) continue;
		const record = parseLine(line);
		if (record === null || !isRecord(record.payload)) continue;
		const payload = record.payload;
		if (record.type === "token_usage_record") {
			if (lastTurn === null) requestsAfter++;
			continue;
		}
		if (record.type === "event_msg" && payload.type === "task_started") {
			const attribution = isRecord(payload.turn_attribution) ? payload.turn_attribution : {};
			const trigger = typeof attribution.turn_trigger === "string" ? attribution.turn_trigger : null;
			if (lastTurn === null) lastTurn = { trigger, modelRequests: requestsAfter };
			if (trigger === "goal" && stated === undefined) goalTurn = true;
			continue;
		}
		if (stated !== undefined) continue;
		if (payload.type === "function_call_output" && payload.name === "goal_objective") {
			objective ??= nonEmptyText(payload.output)?.trim() ?? null;
			continue;
		}
		stated = goalStated(record, payload);
	}
	const name = objective ?? (stated ? stated.objective : null) ?? "a goal";
	if (goalTurn) return { goal: name, lastTurn };
	return { goal: stated && stated.status === "active" ? name : null, lastTurn };
}

/** What one line says of the goal: its state, null when there is none (cleared), undefined when it says nothing. */
function goalStated(record: Record<string, unknown>, payload: Record<string, unknown>): Stated | null | undefined {
	if (record.type === "event_msg") {
		if (payload.type === "thread_goal_cleared") return null;
		if (payload.type === "thread_goal_updated") return goalObject(payload.goal);
		return undefined;
	}
	if (record.type !== "response_item" || payload.type !== "function_call_output") return undefined;
	if (typeof payload.output !== "string" || !payload.output.includes('"goal"')) return undefined;
	const output = parseLine(payload.output);
	if (output === null || !("goal" in output)) return undefined;
	// `get_goal` with no goal answers `{"goal": null}`.
	return output.goal === null ? null : goalObject(output.goal);
}

function goalObject(value: unknown): Stated | undefined {
	if (!isRecord(value) || typeof value.status !== "string") return undefined;
	return { objective: nonEmptyText(value.objective)?.trim() ?? null, status: value.status };
}

/** Whether the goal continues the agent by itself: not under `codex exec`, which aborts the goal's turn. */
export function goalCanContinue(reading: CodexGoalReading): boolean {
	return reading.goal !== null && reading.lastTurn?.trigger !== "exec";
}

/** Whether an Interrupt is `codex exec` aborting the goal's turn at shut-down (it never reached the model). */
export function isGoalShutdownInterrupt(reading: CodexGoalReading): boolean {
	return reading.lastTurn?.trigger === "goal" && reading.lastTurn.modelRequests === 0;
}

/** The name the `why` line gives the goal. */
export function goalDriverName(objective: string): string {
	return objective === "a goal" ? "Codex's goal" : `Codex's goal "${objective}"`;
}
