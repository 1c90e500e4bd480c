/**
 * The simulated agent's side: the work items with their ground truth, what an
 * agent is told at the start of a turn, and the plan of what it does in that
 * turn (tool calls, real work, list writes, questions, background tasks),
 * built step by step with timings.
 */
import type { TodoStatus } from "../../src/core/todos.js";
import type { PromptTraits, SimTodo, TurnSource } from "./model.js";
import type { Rng } from "./prng.js";

export interface Item {
	id: string;
	content: string;
	status: TodoStatus;
	/** Ground truth: the work is really done, whatever the list says. */
	done: boolean;
	/** Needs someone outside the session (a key, an access, a decision): the agent cannot do it. */
	outside: boolean;
	/** Turns of real work the item takes; `worked` of them are done. */
	effort: number;
	worked: number;
}

export function toTodos(items: readonly Item[]): SimTodo[] {
	return items.map((item) => ({ id: item.id, content: item.content, status: item.status }));
}

export function isOpenStatus(status: TodoStatus): boolean {
	return status === "pending" || status === "in_progress";
}

/** Not done yet and within the agent's reach. */
export function doable(items: readonly Item[]): Item[] {
	return items.filter((item) => !item.done && !item.outside && item.status !== "cancelled");
}

export type UserIntent = "work" | "answer" | "status";

export interface TurnInput {
	source: TurnSource;
	/** For user turns: what the message asks. */
	intent: UserIntent | null;
	/** What the nudge that started this turn said (null for other turns). */
	traits: PromptTraits | null;
	/** A phrase the session was told to print when done (a loop command's), if any. */
	phrase: string | null;
	items: readonly Item[];
	/** 0-based index of this turn in its session. */
	turn: number;
	/** The agent's own question is still unanswered. */
	pendingQuestion: boolean;
	backgroundRunning: number;
	/** Subagents that returned since the last turn: the item each did, and whether a note asking to check it rode along. */
	results: readonly { item: string; verifyNote: boolean }[];
	rng: Rng;
}

export interface ChildSpec {
	/** The parent's item this subagent does. */
	parentItem: string;
	durationMs: number;
	agent: string;
	readOnly: boolean;
	/** Items on the subagent's own list. */
	items: number;
	/** It leaves its last item unmarked. */
	stale: boolean;
	/** It reports its part done although the parent's item is not (ground truth). */
	unfinished?: boolean;
	/** It never finishes: its turn never ends. */
	wedged?: boolean;
}

export type Step =
	| { at: number; kind: "assistant" }
	| { at: number; kind: "activity"; tool: "edit" | "bash" }
	| { at: number; kind: "work"; id: string }
	| { at: number; kind: "list"; todos: SimTodo[] }
	| { at: number; kind: "question" }
	| { at: number; kind: "self-answer" }
	| { at: number; kind: "spawn"; children: ChildSpec[]; jobs: number[] }
	/** The agent gives up on the subagent working on `item` (treats it as failed): it no longer waits for it. */
	| { at: number; kind: "abandon"; item: string };

export interface TurnPlan {
	steps: Step[];
	durationMs: number;
	text: string;
	/** The closing text asks the user something and the agent waits for the answer. */
	asks: boolean;
}

export interface Agent {
	respond(input: TurnInput): TurnPlan;
	/** A reminder to update the list rode on a tool result mid-turn: the list it writes then, or null to write none. */
	onListReminder?(items: readonly Item[]): SimTodo[] | null;
}

export interface Pace {
	/** Time a work item takes, in ms. */
	itemMs: [number, number];
}

export const DEFAULT_PACE: Pace = { itemMs: [45_000, 180_000] };

/** Builds one turn: a working copy of the list, the steps and their times. */
export class PlanBuilder {
	private t = 0;
	private readonly steps: Step[] = [];
	readonly items: Item[];

	constructor(
		items: readonly Item[],
		private readonly rng: Rng,
		private readonly pace: Pace = DEFAULT_PACE,
	) {
		this.items = items.map((item) => ({ ...item }));
		this.wait(2_000, 8_000);
		this.steps.push({ at: this.t, kind: "assistant" });
	}

	wait(min: number, max: number): this {
		this.t += this.rng.int(min, max);
		return this;
	}

	activity(tool: "edit" | "bash"): this {
		this.wait(5_000, 20_000);
		this.steps.push({ at: this.t, kind: "activity", tool });
		return this;
	}

	/** One turn's worth of real work on the item (`edits` file changes, a command that checks it); true when that finishes it. */
	work(id: string, edits = 1): boolean {
		const [min, max] = this.pace.itemMs;
		this.t += this.rng.int(Math.floor(min / 2), Math.floor(max / 2));
		for (let i = 0; i < edits; i++) this.activity("edit");
		this.t += this.rng.int(Math.floor(min / 2), Math.floor(max / 2));
		this.activity("bash");
		this.steps.push({ at: this.t, kind: "work", id });
		const item = this.items.find((candidate) => candidate.id === id);
		if (!item) return false;
		item.worked++;
		if (item.worked >= item.effort) item.done = true;
		return item.done;
	}

	/** Sets statuses and writes the list (one todo write). */
	mark(changes: Readonly<Record<string, Item["status"]>>): this {
		for (const item of this.items) {
			const status = changes[item.id];
			if (status) item.status = status;
		}
		return this.writeList();
	}

	/** Replaces the whole list (rewrites, reorders, additions) and writes it. */
	replace(items: readonly Item[]): this {
		this.items.splice(0, this.items.length, ...items.map((item) => ({ ...item })));
		return this.writeList();
	}

	writeList(): this {
		this.wait(1_000, 4_000);
		this.steps.push({ at: this.t, kind: "list", todos: toTodos(this.items) });
		return this;
	}

	question(): this {
		this.wait(2_000, 6_000);
		this.steps.push({ at: this.t, kind: "question" });
		return this;
	}

	selfAnswer(): this {
		this.steps.push({ at: this.t, kind: "self-answer" });
		return this;
	}

	spawn(children: ChildSpec[], jobs: number[] = []): this {
		this.wait(3_000, 10_000);
		this.steps.push({ at: this.t, kind: "spawn", children, jobs });
		return this;
	}

	abandon(item: string): this {
		this.wait(1_000, 3_000);
		this.steps.push({ at: this.t, kind: "abandon", item });
		return this;
	}

	build(text: string, asks = false): TurnPlan {
		this.wait(2_000, 6_000);
		return { steps: this.steps, durationMs: this.t, text, asks };
	}
}

/**
 * Does `count` turns' worth of work on the doable items in list order (an
 * item may take more than one); marks each finished item done (and the next in
 * progress) when `mark`. Returns the items it finished.
 */
export function doItems(builder: PlanBuilder, count: number, mark: boolean, edits = 1): Item[] {
	const done: Item[] = [];
	for (let i = 0; i < count; i++) {
		const item = doable(builder.items)[0];
		if (!item) break;
		if (mark && item.status !== "in_progress") builder.mark({ [item.id]: "in_progress" });
		if (!builder.work(item.id, edits)) continue;
		done.push(item);
		if (mark) {
			const next = doable(builder.items)[0];
			builder.mark(next ? { [item.id]: "completed", [next.id]: "in_progress" } : { [item.id]: "completed" });
		}
	}
	return done;
}

/** Marks every item that is really done but not shown as completed. */
export function markDone(builder: PlanBuilder): number {
	const changes: Record<string, Item["status"]> = {};
	for (const item of builder.items) {
		if (item.done && item.status !== "completed") changes[item.id] = "completed";
	}
	const count = Object.keys(changes).length;
	if (count > 0) builder.mark(changes);
	return count;
}

/** The list the agent writes in its first turn: every item pending, the first in progress. */
export function writeInitialList(builder: PlanBuilder): void {
	const first = builder.items[0];
	builder.mark(first ? { [first.id]: "in_progress" } : {});
}

const TASKS = [
	"add the config loader",
	"validate the input schema",
	"write the parser",
	"handle empty files",
	"add retries to the HTTP client",
	"log request ids",
	"migrate the users table",
	"write the migration test",
	"update the README",
	"add the CLI flag",
	"fix the flaky date test",
	"add pagination to the list endpoint",
	"cache the token lookup",
	"remove the legacy handler",
	"add a health check",
	"wire the metrics exporter",
	"write the changelog entry",
	"rename the settings module",
	"add the export command",
	"cover the error paths with tests",
];

/** `count` pending items with stable ids and distinct titles. */
export function makeItems(count: number, rng: Rng): Item[] {
	const titles = rng.shuffle(TASKS);
	return Array.from({ length: count }, (_, index) => {
		const base = titles[index % titles.length] as string;
		const round = Math.floor(index / titles.length);
		return {
			id: `t${index + 1}`,
			content: round === 0 ? base : `${base} (part ${round + 1})`,
			status: "pending" as const,
			done: false,
			outside: false,
			effort: 1,
			worked: 0,
		};
	});
}
