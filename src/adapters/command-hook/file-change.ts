/**
 * A file change the agent is about to make (Claude Code's PreToolUse on its
 * file tools): orchestrate mode may warn about it (context) or refuse it (a
 * deny the model reads), todo hygiene may remind the agent to update its
 * list (context on the tool's result). The answer is written once, for the
 * full event mapping (`claude-style.ts`) and for the hook bundle that
 * answers this event alone (`fileChangeDialect`): one process per edit, so
 * that bundle opens no `Engine` and carries none of the Stop path.
 */
import type { FileChangeAnswer, SessionRef } from "../../engine/engine.js";
import type { FileChanges } from "../../engine/file-changes.js";
import { contextAnswer, type HookAnswer, NOTHING } from "../shared/hook-answer.js";
import { type CommandHookInput, isRecord, stringField } from "../shared/hook-input.js";
import type { CommandHookDialect } from "./dialect.js";
import { sessionRefOf } from "./events.js";

/** The engine's step for a change: `Engine.fileChangeAsked`, or `FileChanges.fileChangeAsked`. */
export type AskFileChange = (ref: SessionRef, change: { tool: string; files: string[] }) => Promise<FileChangeAnswer>;

export async function fileChangeAnswer(
	input: CommandHookInput,
	ref: SessionRef,
	ask: AskFileChange,
): Promise<HookAnswer> {
	const tool = stringField(input, "tool_name");
	if (tool === null || ref.subagent) return NOTHING;
	const toolInput = isRecord(input.fields.tool_input) ? input.fields.tool_input : {};
	const files = [toolInput.file_path, toolInput.notebook_path].filter(
		(file): file is string => typeof file === "string" && file !== "",
	);
	const { verdict, reminder } = await ask(ref, { tool, files });
	if (verdict.kind === "deny") {
		const output = { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: verdict.text };
		return { output: { hookSpecificOutput: output } };
	}
	const context = [verdict.kind === "warn" ? verdict.text : null, reminder].filter((text) => text !== null);
	return contextAnswer("PreToolUse", context.length === 0 ? null : context.join("\n\n"));
}

/**
 * A dialect that answers only `event`, a Claude-style file change, with the
 * rest of `base` (its name, registrations, input reader): what a harness's
 * one-event bundle runs (`tsdown.config.ts`). Any other event is let pass.
 */
export function fileChangeDialect<I extends CommandHookInput>(
	base: Omit<CommandHookDialect<I>, "handle" | "words">,
	event: string,
): CommandHookDialect<I, FileChanges> {
	return {
		...base,
		handle: (input, engine) =>
			input.event === event
				? fileChangeAnswer(input, sessionRefOf(input, base.harness, "SubagentStop"), (ref, change) =>
						engine.fileChangeAsked(ref, change),
					)
				: Promise.resolve(NOTHING),
	};
}
