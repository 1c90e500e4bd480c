/**
 * What the pi adapter says: the notices pi shows around a continuation, the
 * todo tools' descriptions and answers (read by the model), the `/boulder`
 * command's description, and the installer's messages. The nudges
 * themselves are the core's prompts.
 */

import { entryInstallText } from "../shared/install-messages.js";

/** The `customType` of boulder's continuation message in pi's session. */
export const NUDGE_TYPE = "boulder-continuation";

/** The `customType` of the entry a notice is in `pi --mode json` (`{text, level}`). */
export const NOTICE_TYPE = "boulder-notice";

export const COMMAND_NAME = "boulder";

export const COMMAND_DESCRIPTION = "boulder: status, stop, go or why (answered without a model turn)";

export const SUBCOMMANDS = [
	{ value: "status", description: "the works of this worktree and this session's state" },
	{ value: "stop", description: "no automatic continuation in this session until /boulder go" },
	{ value: "go", description: "turn automatic continuation back on" },
	{ value: "why", description: "the last decisions for this session, in plain words" },
] as const;

export const NOTICE = {
	continuing: (open: number) =>
		`boulder: continuing — ${open} item${open === 1 ? "" : "s"} left (/boulder stop turns it off)`,
	complete: (text: string) => text,
	limit: (detail: string) =>
		`boulder: not continuing — ${detail}. /boulder why explains; your next message starts afresh.`,
	configProblem: (message: string) => `boulder: not continuing: ${message}`,
	failed: (message: string) => `boulder: could not do that: ${message}`,
} as const;

export const TOOL_TEXT = {
	writeLabel: "Todo list",
	writeDescription: [
		"Write your todo list for the current task: the whole list each time (it replaces the previous one).",
		"Use it for any task of more than one step. Mark an item in_progress when you start it and completed as soon as it is done;",
		"mark it blocked (with the reason in its text) when it needs someone else, or cancelled when it is no longer wanted.",
		"While items are open, boulder brings you back to them when you stop, so keep the list true.",
	].join(" "),
	writeSnippet: "Write the todo list of the current task (the whole list; replaces the previous one)",
	readLabel: "Read todo list",
	readDescription: "Read your current todo list, as last written with todo_write.",
	readSnippet: "Read the current todo list",
	clearLabel: "Clear todo list",
	clearDescription:
		"Empty your todo list. Only to give up the remaining work on purpose; finished work is marked completed with todo_write instead.",
	clearSnippet: "Empty the todo list (to abandon the remaining work)",
	content: "What the item is, in one line",
	status: "pending, in_progress, completed, cancelled or blocked",
	priority: "high, medium or low (optional)",
	id: "A stable id for the item (optional)",
	saved: (total: number, open: number, done: number) =>
		`Saved ${total} item${total === 1 ? "" : "s"}: ${open} open, ${done} done.`,
	dropped: (warnings: string[]) => `Not kept: ${warnings.join("; ")}`,
	empty: "The todo list is empty.",
	cleared: (count: number) => `Cleared the todo list (${count} item${count === 1 ? "" : "s"} removed).`,
	unavailable: (message: string) => `The todo list could not be reached: ${message}`,
} as const;

export const INSTALL_TEXT = {
	...entryInstallText({ title: "pi", thing: "extension", file: "settings", list: "extensions" }),
	restart: "pi loads extensions when it starts: restart it (or run /reload) to pick the change up.",
	portable: (entry: string) =>
		`The entry is a path inside the project (${entry}), resolved from .pi/: teammates who install boulder-agent as a devDependency load the same extension.`,
	linked: (link: string, extension: string) =>
		`The entry names no path of this machine: ~/.local/share/boulder/pi-extension.js, a link that loads your boulder (${link} → ${extension}). Each teammate's \`boulder install pi\` writes their own; add boulder-agent as a devDependency to pin one copy for everyone.`,
	trust:
		"pi loads a project's .pi/settings.json, and so boulder, only in a project it trusts. Interactive pi asks once (choose Trust to save it); `pi -p`, `--mode json` and `--mode rpc` never ask: they skip the project's settings without a word, and boulder is not loaded, unless the run has --approve or the project's trust is saved. `boulder doctor` says which holds here.",
};

/** What `boulder doctor` says of pi's trust in a project that lists boulder. */
export const TRUST_TEXT = {
	trusted: (how: string) => `pi trusts this project (${how}): it loads boulder from .pi/settings.json`,
	distrusted: (how: string) =>
		`pi does not trust this project (${how}): it skips .pi/settings.json, and boulder is not loaded`,
	distrustedFix: "trust the project in pi (/trust), or run `boulder install pi --user` instead",
	unsaved: (problem: string | null) =>
		`pi has no saved trust for this project${problem ? ` (${problem})` : ""}: interactive pi asks; \`pi -p\`, \`--mode json\` and \`--mode rpc\` skip .pi/settings.json without a word, and boulder is not loaded`,
	unsavedFix: "run pi here once and choose Trust, or pass --approve to headless runs",
} as const;
