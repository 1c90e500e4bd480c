/**
 * Copilot CLI's todo list: the rows of the `todos` table in the session's
 * SQLite database, which the agent writes with its `sql` tool (`id, title,
 * description, status` with status `pending`, `in_progress`, `done` or
 * `blocked`). The database sits beside the event log, in the session's state
 * folder; it is read whole when the agent stops.
 *
 * Contract: as `core/todo-normalize.ts`: nothing throws past `readTodos`'s
 * own read errors, and every row dropped or changed is named in `warnings`.
 */
import path from "node:path";
import { type NormalizedTodos, normalizeTodoList, type TodoShape } from "../../core/todo-normalize.js";
import { fileProblemOf } from "../../engine/bounded-read.js";
import { readTable } from "./session-db.js";

const TODO_ROWS: TodoShape = { label: "todos", listFields: ["todos"], text: "title", status: "status", id: "id" };

export const SESSION_DB = "session.db";

/** Rows of Copilot's `todos` table (or `{todos: rows}`) as boulder's todos. */
export function normalizeCopilotTodos(input: unknown): NormalizedTodos {
	return normalizeTodoList(input, TODO_ROWS);
}

/** The session database of the session whose event log is `transcriptPath`. */
export function sessionDbOf(transcriptPath: string): string {
	return path.join(path.dirname(transcriptPath), SESSION_DB);
}

/**
 * The agent's list as the database holds it now; null when the session has
 * no database yet or no `todos` table (the agent never made a list).
 * Contract: rejects with a `SessionDbProblem` or a `FileProblem` other than a missing file.
 */
export async function readTodos(database: string): Promise<NormalizedTodos | null> {
	try {
		const rows = await readTable(database, "todos");
		return rows === null ? null : normalizeCopilotTodos(rows);
	} catch (error) {
		if (fileProblemOf(error)?.kind === "missing") return null;
		throw error;
	}
}
