/**
 * A tiny script driver for the policy models: plays harness events at a
 * simulated clock and asks the policy at idles, delivering what it injects
 * (after its own countdown and last check), so a test reads like the
 * sequence it pins.
 */
import type {
	Answer,
	HarnessEvent,
	IdleFacts,
	Outcome,
	Policy,
	SimTodo,
	TurnSource,
} from "../../bench/policy/model.js";

const STATUS: Record<string, SimTodo["status"]> = {
	".": "pending",
	">": "in_progress",
	x: "completed",
	"-": "cancelled",
	"~": "blocked",
};

/** "x>.." → t1 completed, t2 in progress, t3 and t4 pending. */
export function todos(spec: string): SimTodo[] {
	return [...spec].map((char, index) => {
		const status = STATUS[char];
		if (!status) throw new Error(`unknown status char ${char}`);
		return { id: `t${index + 1}`, content: `task ${index + 1}`, status };
	});
}

type EventBody = HarnessEvent extends infer E ? (E extends HarnessEvent ? Omit<E, "at"> : never) : never;

export interface TurnOptions {
	outcome?: Outcome;
	text?: string;
	lastCallTokens?: number;
	activity?: number;
	session?: string;
}

export interface IdleResult {
	answer: Answer;
	delivered: boolean;
}

export class Driver {
	now = 1_000_000;
	delivered = 0;

	constructor(readonly policy: Policy) {}

	emit(event: EventBody): void {
		this.policy.observe({ ...event, at: this.now } as HarnessEvent);
	}

	wait(ms: number): this {
		this.now += ms;
		return this;
	}

	/** A whole turn: start, the assistant answering, tool activity, end. */
	turn(source: TurnSource, options: TurnOptions = {}): this {
		const session = options.session ?? "main";
		this.emit({ type: "turn-start", session, source });
		this.wait(5_000);
		this.emit({ type: "assistant", session });
		for (let i = 0; i < (options.activity ?? 0); i++) {
			this.wait(5_000);
			this.emit({ type: "activity", session, tool: "bash" });
		}
		this.wait(30_000);
		this.emit({
			type: "turn-end",
			session,
			outcome: options.outcome ?? "end",
			spend: { input: 500, output: 800, cacheWrite: 3_000 },
			lastCallTokens: options.lastCallTokens ?? 8_000,
			text: options.text ?? "Done with that item.",
		});
		return this;
	}

	facts(overrides: Partial<IdleFacts> = {}): IdleFacts {
		return {
			session: "main",
			subagent: false,
			agent: "build",
			readOnly: false,
			todos: todos("x.."),
			lastAssistantText: "Done with that item.",
			pendingQuestion: false,
			backgroundTasks: 0,
			busy: false,
			latestIsCompaction: false,
			orchestrating: false,
			background: [],
			harnessCap: null,
			now: this.now,
			...overrides,
		};
	}

	/** One idle: the policy decides; an inject is delivered after its countdown if its last check agrees. */
	idle(overrides: Partial<IdleFacts> = {}): IdleResult {
		const answer = this.policy.decide(this.facts(overrides));
		if (answer.kind !== "inject") return { answer, delivered: false };
		this.wait(this.policy.countdownMs);
		const facts = this.facts(overrides);
		if (this.policy.confirm && !this.policy.confirm(answer.key, facts)) return { answer, delivered: false };
		this.emit({ type: "delivered", session: facts.session, key: answer.key });
		this.delivered++;
		return { answer, delivered: true };
	}

	/** Idle, and if a nudge went out, the agent's turn in answer to it. */
	nudgeCycle(overrides: Partial<IdleFacts> = {}, turn: TurnOptions = {}): IdleResult {
		const result = this.idle(overrides);
		if (result.delivered) this.turn("nudge", { session: overrides.session ?? "main", ...turn });
		return result;
	}
}

export function reason(answer: Answer): string {
	return answer.kind === "skip" ? answer.reason : "inject";
}
