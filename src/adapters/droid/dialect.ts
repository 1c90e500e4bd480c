/**
 * Factory Droid's dialect: it copied Claude Code's hooks, so its events are the
 * family's Claude-style mapping (`command-hook/claude-style.ts`); its own are
 * its TodoWrite string, its transcript and its files (`docs/droid-notes.md`).
 */
import path from "node:path";
import { type NormalizedTodos, normalizeTodoList } from "../../core/todo-normalize.js";
import type { TodoStatus } from "../../core/todos.js";
import { adapterOf } from "../command-hook/adapter.js";
import { type ClaudeStyleSpec, type ClaudeStyleTurn, handleClaudeStyleHook } from "../command-hook/claude-style.js";
import { type CommandHookDialect, installOf } from "../command-hook/dialect.js";
import type { HooksDoctor } from "../command-hook/doctor.js";
import type { Place } from "../command-hook/install.js";
import type { HookRegistration } from "../command-hook/registrations.js";
import { boulderHook } from "../command-hook/spelling.js";
import * as scan from "../command-hook/turn-reader.js";
import { harnessHome } from "../shared/harness-home.js";
import { isRecord, parseCommandHookInput } from "../shared/hook-input.js";
import { commandHookDoctorText, hooksInstallText } from "../shared/install-messages.js";

export const HARNESS = "droid";
const TITLE = "Factory Droid";
const TODO_TOOL = "TodoWrite";
const PROJECT_DIR = "FACTORY_PROJECT_DIR";

/** What boulder registers (timeouts in seconds, as Droid reads them): the Stop may run a plan's verify commands. */
export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: 60 },
	{ event: "UserPromptSubmit", timeout: 60 },
	{ event: "PostToolUse", matcher: TODO_TOOL, timeout: 60 },
	{ event: "Stop", timeout: 900 },
	{ event: "SubagentStop", timeout: 60 },
	{ event: "PreCompact", timeout: 60 },
];
export const EVENTS = REGISTRATIONS.map((registration) => registration.event);

const STATUSES: Record<string, TodoStatus> = { pending: "pending", in_progress: "in_progress", completed: "completed" };
const LINE = /^(?:\d+[.)]\s*|[-*]\s+)?(?:\[(completed|in_progress|pending|[xX ]?)\]\s*)?(.*)$/;
const SHAPE = { label: TODO_TOOL, listFields: ["todos"], text: "content", status: "status", id: "id" };

/** TodoWrite's `todos` string (an item a line; `[x]` completed, no marker pending), or a list of `{content, status}`. */
export function normalizeDroidTodos(input: unknown): NormalizedTodos {
	const todos = isRecord(input) ? input.todos : input;
	if (typeof todos !== "string") return normalizeTodoList(input, SHAPE);
	const items = todos
		.split("\n")
		.map((line) => LINE.exec(line.trim()))
		.filter((match): match is RegExpExecArray => match !== null && (match[2] ?? "").trim() !== "")
		.map(([, marker = "", content = ""], index) => ({
			id: String(index + 1),
			content: content.trim(),
			status: STATUSES[marker] ?? (marker.toLowerCase() === "x" ? "completed" : "pending"),
		}));
	return normalizeTodoList(items, SHAPE);
}

export type DroidTurn = ClaudeStyleTurn & scan.TurnEnd;

const ACTIVITY_TOOLS: ReadonlySet<string> = new Set(["Edit", "Create", "ApplyPatch", "MultiEdit"]);

/** Pure: takes the transcript's records newest first; true at the record that begins the current turn. */
export function droidTally(turn: DroidTurn, answered: Set<string>, line: Record<string, unknown>): boolean {
	if (line.type === "session_start") return true;
	const message = isRecord(line.message) ? line.message : null;
	if (line.type !== "message" || message === null) return false;
	const blocks = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
	if (message.role === "assistant") {
		const text = blocks.flatMap((block) => (block.type === "text" ? [String(block.text ?? "")] : [])).join("\n");
		turn.lastAssistantText ??= text.trim() === "" ? null : text;
		for (const block of blocks.filter((block) => block.type === "tool_use")) {
			if (ACTIVITY_TOOLS.has(String(block.name))) turn.activity++;
			if (block.name === "AskUser" && !answered.has(String(block.id)))
				turn.pendingQuestion ??= "the agent asked the user (AskUser)";
		}
		return false;
	}
	for (const block of blocks) if (block.type === "tool_result") answered.add(String(block.tool_use_id));
	const hidden = typeof line.id !== "string" || /^(__internal__|context-)/.test(line.id);
	const start = message.role === "user" && !hidden && message.hookEventName === undefined;
	if (start && blocks.some((block) => block.type === "text")) turn.startMarker = line.id as string;
	return turn.startMarker !== null;
}

/** Contract: rejects only when the file cannot be opened or read, with a `FileProblem`. */
export async function readDroidTurn(file: string, options: scan.SettleOptions = {}): Promise<DroidTurn> {
	return scan.readTallied(file, options, () => {
		const empty = { activity: 0, interrupt: null, pendingQuestion: null, lastAssistantText: null, startMarker: null };
		const turn = { ...empty, spend: scan.noSpend() } as DroidTurn;
		const answered = new Set<string>();
		return {
			add: (line) => droidTally(turn, answered, line),
			reading: (ended) => ({ ...turn, ...ended, lagging: false }),
		};
	});
}

export const DROID: ClaudeStyleSpec = {
	harness: HARNESS,
	title: TITLE,
	tools: { todoWrite: TODO_TOOL, tasks: [], subagents: [] },
	readTodoWrite: normalizeDroidTodos,
};

export const dialect: CommandHookDialect = {
	harness: HARNESS,
	events: EVENTS,
	registrations: REGISTRATIONS,
	projectDirVar: PROJECT_DIR,
	parse: (text, event) => parseCommandHookInput(text, event, EVENTS),
	handle: (input, engine) => handleClaudeStyleHook(input, DROID, { engine, readTurn: readDroidTurn }),
};

// The install data below is pure (`@__PURE__`): the hook bundle, which needs only `dialect`, drops it.
const INSTALL_TEXT = /* @__PURE__ */ Object.assign(
	/* @__PURE__ */ hooksInstallText(TITLE, { holds: "a JSON object" }),
	{
		noCap: `${TITLE} has no limit of its own on continuations: boulder's budgets and stagnation guard are what bound a run.`,
	},
);

const factory = (folder: string) => ["hooks.json", "settings.json"].map((name) => path.join(folder, ".factory", name));

/** The folder that holds the user's `.factory`: `$FACTORY_HOME_OVERRIDE` (empty is unset; taken as it is), else the home. */
export const droidHome = (env: NodeJS.ProcessEnv): string => harnessHome(env, "FACTORY_HOME_OVERRIDE", "");

export const install = /* @__PURE__ */ installOf(dialect, {
	where: { project: ({ cwd }: Place) => factory(cwd), user: ({ env }: Place) => factory(droidHome(env)) },
	eventMapFile: "hooks.json",
	command: /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR, { link: null }),
	text: INSTALL_TEXT,
	notes: () => [INSTALL_TEXT.noCap],
});

export const doctor: HooksDoctor = {
	text: /* @__PURE__ */ commandHookDoctorText(TITLE, HARNESS),
	place: (_scope, file) => file,
};

export const droidAdapter = /* @__PURE__ */ adapterOf({
	title: TITLE,
	program: "droid",
	scopes: {
		project: "this project's .factory/hooks.json, to commit; no path of this machine in it (the default)",
		user: "your user hooks (~/.factory/hooks.json, or under $FACTORY_HOME_OVERRIDE): every project, pinned to this copy",
	},
	parts: { dialect, install, doctor },
	normalizeTodos: normalizeDroidTodos,
});
