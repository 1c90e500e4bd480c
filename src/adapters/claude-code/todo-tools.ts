/**
 * Claude Code's todo tools, which boulder's todo-list path stands on: since
 * 2.1.233 the newest models are offered none of them (TodoWrite, the Task
 * tools) unless `CLAUDE_CODE_ENABLE_TODO_TOOLS=1`; with it, 2.1.332 offers
 * them deferred behind `ToolSearch`. `boulder install claude-code
 * --todo-tools` sets the variable in the settings' `env`, never without the
 * flag; `boulder doctor` says when no settings file and no environment sets
 * it. A plan (`boulder start PLAN.md`) works without it.
 *
 * Contract: pure text edits, as `hooks-file.ts`: the user's other settings
 * keep every byte; a file that is not a settings object is refused.
 */
import { applyEdits, type Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { parseSettings as parseSettingsOf } from "../shared/hooks-file.js";
import { addMemberEdit, memberOf, plainValue, removal } from "../shared/settings-json.js";
import { isRecord } from "./hook-input.js";
import { INSTALL_TEXT } from "./messages.js";

export const TODO_TOOLS_VARIABLE = "CLAUDE_CODE_ENABLE_TODO_TOOLS";

/** The first Claude Code release whose newest models get no todo tool without the variable. */
export const TODO_TOOLS_OFF_SINCE = "2.1.233";

/** Whether a value of the variable turns the tools on, as Claude Code reads its boolean variables. */
export function turnsOn(value: unknown): boolean {
	return typeof value === "string" && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

/** Whether a settings value's `env` turns the todo tools on. */
export function settingsTurnOn(settings: unknown): boolean {
	return isRecord(settings) && isRecord(settings.env) && turnsOn(settings.env[TODO_TOOLS_VARIABLE]);
}

export interface TodoToolsEdit {
	text: string;
	changed: boolean;
}

/** Pure: the settings text with `env.CLAUDE_CODE_ENABLE_TODO_TOOLS` set to "1"; the same bytes when it already is on. */
export function withTodoTools(text: string, file: string): TodoToolsEdit {
	if (text.trim() === "")
		return { text: `${JSON.stringify({ env: { [TODO_TOOLS_VARIABLE]: "1" } }, null, 2)}\n`, changed: true };
	const root = parseSettingsOf({ text: INSTALL_TEXT }, text, file);
	if (settingsTurnOn(plainValue(root))) return { text, changed: false };
	const env = memberOf(root, "env");
	if (!env)
		return {
			text: applyEdits(text, [addMemberEdit(text, root, "env", { [TODO_TOOLS_VARIABLE]: "1" })]),
			changed: true,
		};
	if (env.type !== "object") {
		throw new BoulderError("settings-invalid", `"env" in ${file} is not an object; boulder did not touch the file.`);
	}
	const current = memberOf(env, TODO_TOOLS_VARIABLE);
	if (!current) return { text: applyEdits(text, [addMemberEdit(text, env, TODO_TOOLS_VARIABLE, "1")]), changed: true };
	return { text: applyEdits(text, [replaceEdit(current)]), changed: true };
}

function replaceEdit(value: Node) {
	return { ...removal(value.offset, value.offset + value.length), content: '"1"' };
}
