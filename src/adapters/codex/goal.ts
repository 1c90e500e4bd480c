/**
 * Codex's own goal mode (0.171: `/goal OBJECTIVE` in the TUI, the model's
 * `create_goal`/`update_goal`/`get_goal`), read from the session's rollout.
 * An active goal starts a new turn whenever the thread goes idle (a hidden
 * `<codex_internal_context source="goal">` message, `turn_trigger: "goal"`),
 * with no cap on turns. boulder and the goal must not both push the agent, so
 * the Stop hook asks here whether a goal is active and can continue, and the
 * engine stands down (`builtInGoals`).
 *
 * What the rollout shows (seen, 0.171.0):
 * - a goal set by the user (app-server `thread/goal/set`, what the TUI's
 *   `/goal` sends): an `event_msg` `{type: "thread_goal_updated", goal:
 *   {objective, status}}`, and a `<codex_internal_context source="user_goal">`
 *   message;
 * - a goal the model creates or changes: the `create_goal`/`update_goal`
 *   (and `get_goal`) call's output, `{"goal": {objective, status, ...}}`;
 * - every turn's `task_started` names what started it:
 *   `turn_attribution.turn_trigger` is `"goal"` for a goal's turn, `"exec"`
 *   under `codex exec`.
 * The latest of these lines decides. A `thread_goal_cleared` line (the name
 * of the app-server's notification; not seen in a rollout) ends the goal.
 *
 * Under `codex exec` a goal never continues: exec shuts down when its turn
 * ends and aborts the turn the goal starts (Codex then fires `Interrupt`,
 * before that turn made any model request). So there boulder keeps driving,
 * and that Interrupt is not the user's.
 *
 * Only the tail of the file is read (`GOAL_TAIL_BYTES`): a goal that drives
 * the session starts its turns near the end.
 *
 * Contract: never throws for what the file holds; an unreadable file is
 * reported as an error to the caller, which treats it as no goal.
 */
import { readTailLines } from "../../engine/bounded-read.js";
import { parseLine } from "../command-hook/turn-reader.js";
import { isRecord } from "../shared/hook-input.js";

/** How much of the rollout's end is read. */
export const GOAL_TAIL_BYTES = 1024 * 1024;

/** The last turn's start, as the rollout shows it. */
export interface RolloutTurnStart {
	/** `turn_attribution.turn_trigger`: `"goal"`, `"exec"`, ...; null when not given. */
	trigger: string | null;
	/** Model responses the turn has had so far (its `token_usage_record` lines). */
	modelRequests: number;
}

export interface CodexGoalReading {
	/** The active goal's objective ("a goal" when none is named), or null when no goal is active. */
	goal: string | null;
	/** The last turn's start, or null when the tail holds none. */
	lastTurn: RolloutTurnStart | null;
}

/** The goal and the last turn's start, read from the end of the rollout. */
export async function readCodexGoal(file: string, tailBytes = GOAL_TAIL_BYTES): Promise<CodexGoalReading> {
	// Only a regular file, opened without blocking: a FIFO in its place is a problem, never a wait.
	return goalOfRolloutLines(await readTailLines(file, tailBytes));
}

/**
 * Pure: the goal and the last turn's start from rollout lines, oldest first.
 * A goal's turn newer than every line that states the goal means the goal was
 * active when it started (an update Codex did not write down may lie
 * between); the newest named objective names it.
 */
export function goalOfRolloutLines(lines: readonly string[]): CodexGoalReading {
	let stated: { objective: string | null; status: string } | null | undefined;
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
			if (objective === null && typeof payload.output === "string" && payload.output.trim() !== "") {
				objective = payload.output.trim();
			}
			continue;
		}
		stated = goalStated(record, payload);
	}
	const name = objective ?? (stated ? stated.objective : null) ?? "a goal";
	if (goalTurn) return { goal: name, lastTurn };
	return { goal: stated && stated.status === "active" ? name : null, lastTurn };
}

/**
 * What one line says of the goal: its state, null when it says there is none
 * (cleared), undefined when it says nothing. The goal objective's own context
 * item (`goal_objective`) names the objective without a status: it says
 * nothing here, but the caller may use it as the name.
 */
function goalStated(
	record: Record<string, unknown>,
	payload: Record<string, unknown>,
): { objective: string | null; status: string } | null | undefined {
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

function goalObject(value: unknown): { objective: string | null; status: string } | undefined {
	if (!isRecord(value) || typeof value.status !== "string") return undefined;
	const objective =
		typeof value.objective === "string" && value.objective.trim() !== "" ? value.objective.trim() : null;
	return { objective, status: value.status };
}

/** Whether a goal in this state continues the agent by itself: not under `codex exec`, which aborts the goal's turn. */
export function goalCanContinue(reading: CodexGoalReading): boolean {
	return reading.goal !== null && reading.lastTurn?.trigger !== "exec";
}

/**
 * Whether an Interrupt is the harness's, not the user's: the turn it ended
 * was started by the goal and never reached the model (`codex exec` aborting
 * the goal's turn as it shuts down).
 */
export function isGoalShutdownInterrupt(reading: CodexGoalReading): boolean {
	return reading.lastTurn?.trigger === "goal" && reading.lastTurn.modelRequests === 0;
}

/** The name the `why` line gives the goal. */
export function goalDriverName(objective: string): string {
	return objective === "a goal" ? "Codex's goal" : `Codex's goal "${objective}"`;
}
