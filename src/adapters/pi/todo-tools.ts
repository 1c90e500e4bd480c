/**
 * boulder's todo tools for pi, which has no todo list of its own:
 * `todo_write` (the whole list, replacing the last), `todo_read` and
 * `todo_clear`. The list is kept by the engine in the session's scope, the
 * same place every harness's list goes, so the decision on idle reads it.
 *
 * Parameters are plain JSON Schema: pi validates tool arguments as JSON
 * Schema whatever built it, so boulder needs no schema library of pi's.
 */

import type { PiBridge, PiView } from "./bridge.js";
import { TOOL_TEXT } from "./messages.js";
import type { PiApi, PiContext } from "./pi-api.js";

export const TODO_TOOLS = ["todo_write", "todo_read", "todo_clear"] as const;

const STATUSES = ["pending", "in_progress", "completed", "cancelled", "blocked"];

const WRITE_PARAMETERS = {
	type: "object",
	properties: {
		todos: {
			type: "array",
			items: {
				type: "object",
				properties: {
					content: { type: "string", minLength: 1, description: TOOL_TEXT.content },
					status: { type: "string", enum: STATUSES, description: TOOL_TEXT.status },
					priority: { type: "string", enum: ["high", "medium", "low"], description: TOOL_TEXT.priority },
					id: { type: "string", description: TOOL_TEXT.id },
				},
				required: ["content", "status"],
			},
		},
	},
	required: ["todos"],
};

const NO_PARAMETERS = { type: "object", properties: {} };

type Reach = (ctx: PiContext) => { bridge: PiBridge; view: PiView };

function answer(text: string) {
	return { content: [{ type: "text" as const, text }], details: undefined };
}

export function registerTodoTools(pi: PiApi, reach: Reach): void {
	pi.registerTool({
		name: "todo_write",
		label: TOOL_TEXT.writeLabel,
		description: TOOL_TEXT.writeDescription,
		promptSnippet: TOOL_TEXT.writeSnippet,
		parameters: WRITE_PARAMETERS,
		executionMode: "sequential",
		async execute(_id, params, _signal, _onUpdate, ctx) {
			const { bridge, view } = reach(ctx);
			return answer(await bridge.writeTodos(view, params));
		},
	});
	pi.registerTool({
		name: "todo_read",
		label: TOOL_TEXT.readLabel,
		description: TOOL_TEXT.readDescription,
		promptSnippet: TOOL_TEXT.readSnippet,
		parameters: NO_PARAMETERS,
		async execute(_id, _params, _signal, _onUpdate, ctx) {
			const { bridge, view } = reach(ctx);
			return answer(await bridge.readTodos(view));
		},
	});
	pi.registerTool({
		name: "todo_clear",
		label: TOOL_TEXT.clearLabel,
		description: TOOL_TEXT.clearDescription,
		promptSnippet: TOOL_TEXT.clearSnippet,
		parameters: NO_PARAMETERS,
		executionMode: "sequential",
		async execute(_id, _params, _signal, _onUpdate, ctx) {
			const { bridge, view } = reach(ctx);
			return answer(await bridge.clearTodos(view));
		},
	});
}
