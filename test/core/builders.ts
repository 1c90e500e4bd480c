/**
 * Builders for core tests: compact todo lists, states after a few turns, and a
 * tiny session driver that plays turns through the pure transitions.
 */
import { Config, type ConfigInput } from "../../src/core/config.js";
import { type Decision, decide, type SessionFacts } from "../../src/core/policy.js";
import type { Todo, TodoStatus } from "../../src/core/todos.js";
import {
	type ContinuationState,
	emptyContinuationState,
	onDelivered,
	onTurnEnd,
	onTurnStart,
	type Provenance,
	type TurnEnd,
} from "../../src/core/turns.js";
import { todosView, type WorkView } from "../../src/core/work-view.js";

const STATUS: Record<string, TodoStatus> = {
	".": "pending",
	">": "in_progress",
	x: "completed",
	"-": "cancelled",
	"~": "blocked",
};

/** "xx>.." → two completed, one in progress, two pending; item i is "task i". */
export function todos(spec: string): Todo[] {
	return [...spec].map((char, index) => {
		const status = STATUS[char];
		if (!status) throw new Error(`unknown todo status char ${char}`);
		return { content: `task ${index + 1}`, status };
	});
}

export function view(spec: string): WorkView {
	return todosView(todos(spec), 3);
}

export function config(input: ConfigInput = {}): Config {
	return Config.parse(input);
}

export const T0 = 1_800_000_000_000;

/** A state whose last turn was started by `provenance` and ended with `end`. */
export function afterTurn(
	provenance: Provenance = "user",
	end: TurnEnd = { outcome: "end" },
	state: ContinuationState = emptyContinuationState(),
	now = T0,
): ContinuationState {
	return onTurnEnd(onTurnStart(state, provenance, now), end, now + 1000);
}

export function idle(
	state: ContinuationState,
	work: WorkView | null,
	options: { facts?: SessionFacts; config?: Config; now?: number } = {},
): Decision {
	return decide({
		state,
		work,
		facts: options.facts ?? {},
		config: options.config ?? config(),
		now: options.now ?? T0 + 2000,
		scope: "test",
	});
}

/**
 * Plays a session: the user asks, then at each idle the policy decides; an
 * inject is delivered and the agent's next turn changes the list as `agent`
 * says. Stops when the policy stops injecting or after `maxIdles`.
 */
export function playSession(options: {
	start: string;
	agent: (turn: number, current: string) => { spec: string; end?: TurnEnd };
	config?: Config;
	facts?: SessionFacts;
	maxIdles?: number;
}): { decisions: Decision[]; final: string; state: ContinuationState } {
	let now = T0;
	let spec = options.start;
	let state = afterTurn("user", { outcome: "end" }, emptyContinuationState(), now);
	const decisions: Decision[] = [];
	for (let i = 0; i < (options.maxIdles ?? 200); i++) {
		now += 60_000;
		const decision = decide({
			state,
			work: view(spec),
			facts: options.facts ?? {},
			config: options.config ?? config(),
			now,
			scope: "s",
		});
		decisions.push(decision);
		state = decision.next;
		if (decision.kind !== "inject" || !decision.key) break;
		state = onDelivered(state, decision.key, now);
		const turn = options.agent(i, spec);
		spec = turn.spec;
		state = onTurnEnd(state, turn.end ?? { outcome: "end" }, now + 30_000);
	}
	return { decisions, final: spec, state };
}

/** Completes the first open item. */
export function completeOne(spec: string): string {
	const index = [...spec].findIndex((char) => char === "." || char === ">");
	return index < 0 ? spec : `${spec.slice(0, index)}x${spec.slice(index + 1)}`;
}
