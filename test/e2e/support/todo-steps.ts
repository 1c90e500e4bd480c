/**
 * The steps by which a scripted model keeps its todo list in Claude Code
 * (TodoWrite) and OpenCode (todowrite): items A, B, … with the statuses given,
 * written whole each time, as those agents do.
 */
import type { ReplyStep } from "./anthropic-server.js";
import type { ModelStep } from "./openai-server.js";

/** A list of `total` items, `done` of them completed, the next one in progress, the rest pending. */
export function statusesAt(done: number, total: number): string[] {
	return Array.from({ length: total }, (_, index) =>
		index < done ? "completed" : index === done ? "in_progress" : "pending",
	);
}

/** Claude Code's TodoWrite, one item per status. */
export function claudeTodoWrite(statuses: string[]): ReplyStep {
	const todos = statuses.map((status, index) => ({
		content: `Item ${letter(index)}`,
		status,
		activeForm: `Working on item ${letter(index)}`,
	}));
	return { toolUses: [{ name: "TodoWrite", input: { todos } }] };
}

/** OpenCode's todowrite, one item per status. */
export function opencodeTodoWrite(statuses: string[]): ModelStep {
	const todos = statuses.map((status, index) => ({ content: `Item ${letter(index)}`, status, priority: "medium" }));
	return { toolCalls: [{ name: "todowrite", args: { todos } }] };
}

function letter(index: number): string {
	return String.fromCharCode(65 + index);
}
