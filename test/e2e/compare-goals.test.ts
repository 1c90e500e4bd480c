/**
 * Compare, don't claim: boulder beside each harness's own "keep going" mode,
 * and each alone, on the same scripted agents, with the real binaries. Runs
 * only with `BOULDER_COMPARE=1` (`node bench/compare-goals.mjs` sets it and
 * prints the table); writes `bench/results/compare-goals.{json,md}`.
 *
 * Harnesses and how each mode is driven:
 * - Claude Code 2.1.332 `/goal` under `-p` (`claude -p "/goal TASK"`); the
 *   goal's judge is a side call to the same scripted server, answered
 *   honestly: met once every item is done. Claude Code pauses a goal after 8
 *   unmet checks in a row.
 * - Codex 0.171 goals: `codex app-server` as the TUI drives it; the goal is
 *   set with `thread/goal/set` (the TUI's `/goal`), boulder alone gets a plain
 *   first turn. A run ends once the thread stays idle, or at 30 turns.
 * - Copilot CLI 1.0.102 `--autopilot` (`--max-autopilot-continues 30`) under `-p`.
 * - Qwen Code 0.24.4 `/goal` (`model.goalMaxTurns: 30`) under `-p`.
 * "boulder" mode: boulder installed, the built-in off; "built-in": the
 * built-in on, boulder not installed; "both": the two together (boulder's
 * default `builtInGoals: "stand-down"`).
 *
 * The scripted agents react to who speaks: a new prompt or continuation gets
 * the agent's next action (a tool call), a tool result gets a short text (the
 * agent stops). So each continuation buys one action, whoever sends it.
 * - lazy: makes a list of 3, does one item per continuation, then (where the
 *   built-in has a "done" tool: Codex `update_goal`, Copilot `task_complete`)
 *   says so. Right: all 3 done, and it stops.
 * - stalled: makes a list, then only talks. Right: stops after at most 3
 *   continuations.
 * - question: makes a list, then asks the user which database to use. Right:
 *   stops at once (0 continuations after the question).
 * - churn: rewrites its list (new words, same nothing) at every
 *   continuation. Right: stops; at 30 continuations it counts as "did not stop".
 * - long: like lazy, with a list of 10. Right: all 10 done, and it stops.
 * - abort: makes a list; the user interrupts (Esc) while the model thinks
 *   about its first result. Right: nothing continues (0 continuations). Only
 *   Codex runs it: its app-server takes `turn/interrupt` as the TUI's Esc.
 *   Claude Code, Copilot and Qwen Code run headless under `-p`, where an
 *   interrupt (SIGINT) ends the process, so nothing could continue in any
 *   mode, and Esc exists only in their TUIs.
 * - verify (not on Qwen Code yet): a one-item plan whose verify command
 *   (`node check.mjs`) fails until greeting.txt exists; boulder rolls the
 *   plan, the built-in is told the same acceptance command in its goal. The
 *   agent ticks the item without the work and says it is done; shown the
 *   check's failure (in boulder's nudge, or by running the command when
 *   pushed without it) it writes the greeting. Right: the greeting is
 *   written, and it stops.
 * - subagent (Claude Code only so far): lists one item, hands it to a
 *   background subagent and ends its turn to wait; the subagent's end comes
 *   back as a `<task-notification>` turn and the agent ticks the item. Right:
 *   the item is done, with no push while the subagent ran.
 * One run per cell: the table says what one run did, not a rate.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
	type Step as ClaudeStep,
	defaultSideReply,
	isSubagentRequest,
	type MessagesBody,
	type RecordedRequest,
	startAnthropicServer,
	toolResults,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { cliPlace as claudePlace, createSandbox as createClaudeSandbox, runClaude } from "./support/claude-run.js";
import { runCodexAppServer } from "./support/codex-app-server.js";
import { createCodexSandbox, trustHooks } from "./support/codex-run.js";
import { cliPlace as copilotPlace, createSandbox as createCopilotSandbox, runCopilot } from "./support/copilot-run.js";
import { type ChatMessage, contentText, type ModelStep, startModelServer } from "./support/openai-server.js";
import { createQwenSandbox, cliPlace as qwenPlace, runQwen } from "./support/qwen-run.js";
import { type ReplyStep, startResponsesServer } from "./support/responses-server.js";
import { NUDGE, writeProjectFiles } from "./support/suite.js";
import { VERIFY_FAILURE, VERIFY_FILES } from "./support/verify-plan.js";

const ON = process.env.BOULDER_COMPARE === "1";
const RUN_MS = 120_000;
const CAP = 30;
const RESULTS = join(import.meta.dirname, "..", "..", "bench", "results");

type Scenario = "lazy" | "long" | "stalled" | "question" | "churn" | "abort" | "verify" | "subagent";
type Mode = "boulder" | "built-in" | "both";
const SCENARIOS: Scenario[] = (process.env.BOULDER_COMPARE_SCENARIOS?.split(",") as Scenario[] | undefined) ?? [
	"lazy",
	"long",
	"stalled",
	"question",
	"churn",
	"abort",
	"verify",
	"subagent",
];
const MODES: Mode[] = ["boulder", "built-in", "both"];
const QUESTION = "Which database should I use, Postgres or SQLite? Please tell me before I go on.";

interface Row {
	harness: string;
	scenario: Scenario;
	mode: Mode;
	boulderNudges: number;
	builtinContinuations: number;
	requests: number;
	itemsDone: number;
	stopped: boolean;
	right: boolean;
}

const rows: Row[] = [];

/** An abstract action of the scripted agent, made concrete per harness. */
type Action =
	| { kind: "list"; words: string; total: number }
	| { kind: "finish"; item: number; total: number }
	| { kind: "done" }
	| { kind: "talk"; text: string };

/** 1 … total. */
function numbers(total: number): number[] {
	return Array.from({ length: total }, (_, index) => index + 1);
}

/** How many items the scenario's list has. */
function itemsOf(scenario: Scenario): number {
	return scenario === "long" ? 10 : scenario === "verify" || scenario === "subagent" ? 1 : 3;
}

/** The agent's next action for its `n`-th prompt or continuation (0: the user's prompt). */
function actionOf(scenario: Scenario, n: number): Action {
	const total = itemsOf(scenario);
	if (n === 0) return { kind: "list", words: "Item", total };
	switch (scenario) {
		case "lazy":
		case "long": {
			if (n <= total) return { kind: "finish", item: n, total };
			if (n === total + 1) return { kind: "done" };
			return { kind: "talk", text: "All the items are done." };
		}
		case "stalled":
			return { kind: "talk", text: "Still thinking about it." };
		case "question":
			return { kind: "talk", text: QUESTION };
		case "churn":
			return { kind: "list", words: ["Task", "Step", "Part", "Piece", "Bit"][n % 5] as string, total };
		case "verify":
		case "subagent":
			return { kind: "talk", text: "The work is done." };
		case "abort":
			// Pushed after the user's interrupt, it would carry on with the list.
			return n <= total ? { kind: "finish", item: n, total } : { kind: "talk", text: "All the items are done." };
	}
}

/** What the agent says after a tool result (it stops there). */
function stopText(scenario: Scenario, action: Action): string {
	if (scenario === "question" && action.kind !== "list") return QUESTION;
	if (action.kind === "finish") return `Item ${action.item} is done.`;
	if (action.kind === "done") return "All the items are done.";
	return scenario === "question" ? QUESTION : "I made the list.";
}

/** Tallies one run from the continuations each prompt-like request carried. */
class Tally {
	n = 0;
	nudges = 0;
	builtin = 0;
	requests = 0;
	done = 0;
	/** The failing-verify agent sent the command that writes the greeting. */
	wrote = false;
	last: Action = { kind: "list", words: "Item", total: 3 };
	/** `prompt`: the request's last input is a prompt (not a tool result), with its text. */
	next(scenario: Scenario, prompt: string | null, builtinMarker: string): { action: Action } | { stop: string } {
		this.requests++;
		if (prompt === null) return { stop: stopText(scenario, this.last) };
		if (this.n > 0) {
			if (prompt.includes(NUDGE)) this.nudges++;
			else if (prompt.includes(builtinMarker)) this.builtin++;
		}
		const action = actionOf(scenario, this.n++);
		if (action.kind === "finish") this.done = Math.max(this.done, action.item);
		this.last = action;
		// A spoken action is its own stop: no tool result follows.
		if (action.kind === "talk") return { stop: action.text };
		return { action };
	}
	continuations(): number {
		return this.nudges + this.builtin;
	}
}

function rightOutcome(scenario: Scenario, tally: Tally, stopped: boolean): boolean {
	if (!stopped) return false;
	switch (scenario) {
		case "lazy":
		case "long":
		case "verify":
			return tally.done === itemsOf(scenario);
		case "subagent":
			return tally.done === 1 && tally.continuations() === 0;
		case "stalled":
			return tally.continuations() <= 3;
		case "question":
			return tally.continuations() === 0;
		case "churn":
			return tally.continuations() < CAP;
		case "abort":
			return tally.continuations() === 0;
	}
}

// ---- Codex (app-server) ----------------------------------------------------

const CODEX_GOAL = '<codex_internal_context source="goal">';

function codexStep(action: Action): ReplyStep {
	switch (action.kind) {
		case "list":
			return {
				calls: [
					{
						name: "update_plan",
						args: {
							plan: numbers(action.total).map((index) => ({ step: `${action.words} ${index}`, status: "pending" })),
						},
					},
				],
			};
		case "finish":
			return {
				calls: [
					{
						name: "update_plan",
						args: {
							plan: numbers(action.total).map((index) => ({
								step: `Item ${index}`,
								status: index <= action.item ? "completed" : "pending",
							})),
						},
					},
				],
			};
		case "done":
			return { calls: [{ name: "update_goal", args: { status: "complete" } }] };
		case "talk":
			return { text: action.text };
	}
}

async function runCodexCell(scenario: Scenario, mode: Mode): Promise<Row> {
	const sandbox = await createCodexSandbox();
	const tally = new Tally();
	const control: { interrupt?: () => void } = {};
	let interrupted = false;
	const server = await startResponsesServer(({ request }) => {
		const last = request.body?.input?.at(-1);
		const prompt =
			last?.type === "function_call_output" || last?.type === "custom_tool_call_output" ? null : inputText(last);
		if (tally.requests > CAP * 3) return { text: "Stopping here." };
		if (scenario === "abort" && prompt === null && !interrupted) {
			// The user presses Esc while the model thinks about the list's first result.
			interrupted = true;
			tally.requests++;
			setTimeout(() => control.interrupt?.(), 500);
			return { text: "Starting on item 1.", delayMs: 5_000 };
		}
		if (scenario === "verify") {
			const result = typeof last?.output === "string" ? last.output : JSON.stringify(last?.output ?? "");
			const move = noteWrite(tally, verifyMove(tally, prompt, result, CODEX_GOAL, mode !== "boulder"));
			if (move.kind === "shell") return { calls: [{ name: "exec_command", args: { cmd: move.command } }] };
			if (move.kind === "done") return { calls: [{ name: "update_goal", args: { status: "complete" } }] };
			return { text: move.text };
		}
		const next = tally.next(scenario, prompt, CODEX_GOAL);
		if ("stop" in next) return { text: next.stop };
		// The goal's `done` tool exists only beside a goal; alone, the agent just says so.
		if (next.action.kind === "done" && mode === "boulder") return { text: "All the items are done." };
		return codexStep(next.action);
	});
	try {
		const { boulderOk } = boulderIn(() => ({ cwd: sandbox.project, env: sandbox.env }));
		if (mode !== "built-in") {
			await boulderOk("install", "codex", "--user");
			await trustHooks(sandbox, join(sandbox.codexHome, "hooks.json"));
		}
		if (scenario === "verify") {
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			if (mode !== "built-in") await boulderOk("start", "plan.md");
		}
		const run = await runCodexAppServer(sandbox, {
			modelUrl: server.url,
			maxTurns: CAP,
			timeoutMs: RUN_MS,
			control,
			...(mode === "boulder" ? { prompt: promptOf(scenario) } : { goal: promptOf(scenario) }),
		});
		const stopped = !run.runaway && !run.timedOut && tally.continuations() < CAP;
		if (scenario === "verify") tally.done = greetingWritten(sandbox.project);
		if (scenario === "abort") {
			// The interrupt landed: the turn ended interrupted, not by the model's reply.
			const ends = run.notifications.filter((one) => one.method === "turn/completed");
			expect(ends.map((one) => (one.params.turn as { status?: unknown } | undefined)?.status)).toContain("interrupted");
		}
		return row("Codex 0.171 goals", scenario, mode, tally, stopped);
	} finally {
		await server.close();
		await sandbox.dispose();
	}
}

/** The text of a Responses-API input item (a message's text parts). */
function inputText(item: { content?: unknown } | undefined): string {
	if (item === undefined) return "";
	if (typeof item.content === "string") return item.content;
	if (!Array.isArray(item.content)) return "";
	return item.content
		.map((part) => (typeof part === "object" && part !== null && "text" in part ? String(part.text) : ""))
		.join("\n");
}

// ---- Claude Code (-p "/goal …") ---------------------------------------------

/** What the scripted judge says while the condition is unmet; it reaches the agent as the goal's feedback. */
const CLAUDE_GOAL = "the list is not finished yet";

/** The goal's judge: a side call that demands a JSON object (`output_config.format`). */
function isClaudeJudge(request: RecordedRequest): boolean {
	const config = (request.body as MessagesBody).output_config as { format?: { type?: string } } | undefined;
	return config?.format?.type === "json_schema";
}

/** The request's last user message as a prompt, or null when it carries a tool result. */
function claudePrompt(request: RecordedRequest): string | null {
	const last = (request.body as MessagesBody).messages?.filter((message) => message.role === "user").at(-1);
	if (last === undefined) return "";
	if (typeof last.content === "string") return last.content;
	const blocks = Array.isArray(last.content) ? (last.content as { type?: string; text?: unknown }[]) : [];
	if (blocks.some((block) => block.type === "tool_result")) return null;
	return blocks.map((block) => (block.type === "text" ? String(block.text) : "")).join("\n");
}

function claudeStep(action: Action): ClaudeStep {
	const list = (words: string, done: number, total: number): ClaudeStep => ({
		toolUses: [
			{
				name: "TodoWrite",
				input: {
					todos: numbers(total).map((index) => ({
						content: `${words} ${index}`,
						status: index <= done ? "completed" : "pending",
						activeForm: `Working on ${words.toLowerCase()} ${index}`,
					})),
				},
			},
		],
	});
	switch (action.kind) {
		case "list":
			return list(action.words, 0, action.total);
		case "finish":
			return list("Item", action.item, action.total);
		case "done":
			return { text: "All the items are done." };
		case "talk":
			return { text: action.text };
	}
}

/** The failing-verify agent's moves, made concrete per harness. */
type VerifyMove = { kind: "shell"; command: string } | { kind: "done" } | { kind: "talk"; text: string };

const TICK = "sed -i 's/- \\[ \\] Write/- [x] Write/' plan.md";
const WRITE = "echo hello > greeting.txt";

/**
 * The failing-verify agent: it ticks the plan's item without doing the work
 * and says it is done (where the built-in has a "done" tool, it calls it).
 * Shown the check's failure (in boulder's nudge, or by running the
 * acceptance command it was told when pushed without it), it writes the
 * greeting and says so. `result`: the last tool result's text, for a tool
 * result; `prompt`: the prompt's text, else null.
 */
function verifyMove(
	tally: Tally,
	prompt: string | null,
	result: string,
	builtinMarker: string,
	doneTool: boolean,
): VerifyMove {
	tally.requests++;
	if (prompt === null) {
		if (result.includes(VERIFY_FAILURE)) return { kind: "shell", command: WRITE };
		if (doneTool && tally.n === 1 && tally.last.kind !== "done") {
			tally.last = { kind: "done" };
			return { kind: "done" };
		}
		return {
			kind: "talk",
			text: tally.wrote ? "Wrote the greeting; the check passes now." : "Ticked the item; the work is done.",
		};
	}
	if (tally.n++ === 0) return { kind: "shell", command: TICK };
	if (prompt.includes(NUDGE)) tally.nudges++;
	else if (prompt.includes(builtinMarker)) tally.builtin++;
	if (prompt.includes(VERIFY_FAILURE)) return { kind: "shell", command: WRITE };
	return { kind: "shell", command: "node check.mjs" };
}

/** Marks the greeting written once the agent sends the command that writes it. */
function noteWrite(tally: Tally, move: VerifyMove): VerifyMove {
	if (move.kind === "shell" && move.command === WRITE) tally.wrote = true;
	return move;
}

/** Whether the greeting exists: the failing-verify scenario's one item is done. */
function greetingWritten(project: string): number {
	return existsSync(join(project, "greeting.txt")) ? 1 : 0;
}

/**
 * The subagent agent (Claude Code): it lists one item, hands it to a
 * subagent (in the background, 2.1.332's default) and ends its turn to wait;
 * the subagent's end arrives as a `<task-notification>` turn, and the agent
 * ticks the item. A push while the subagent runs gets "still waiting".
 */
function subagentStep(tally: Tally, request: RecordedRequest): ClaudeStep {
	// The subagent works a while, so the parent's turn ends before it does.
	if (isSubagentRequest(request)) return { text: "Subagent: item 1 is done.", delayMs: 8_000 };
	tally.requests++;
	const prompt = claudePrompt(request);
	const todo = (status: string): ClaudeStep => ({
		toolUses: [
			{ name: "TodoWrite", input: { todos: [{ content: "Item 1", status, activeForm: "Working on item 1" }] } },
		],
	});
	if (prompt === null) {
		const launched = toolResults(request).some((result) => result.text.includes("agent launched"));
		if (!launched && tally.n === 1) {
			tally.n++;
			const description = "Item 1: do the work";
			return {
				toolUses: [
					{ name: "Agent", input: { description, prompt: `${description}.`, subagent_type: "general-purpose" } },
				],
			};
		}
		return { text: tally.done === 1 ? "Item 1 is done." : "Waiting for the helper." };
	}
	if (tally.n++ === 0) return todo("in_progress");
	if (prompt.includes("<task-notification>")) {
		tally.done = 1;
		return todo("completed");
	}
	if (prompt.includes(NUDGE)) tally.nudges++;
	else if (prompt.includes(CLAUDE_GOAL)) tally.builtin++;
	return { text: tally.done === 1 ? "Item 1 is done." : "Still waiting for the helper." };
}

async function runClaudeCell(scenario: Scenario, mode: Mode): Promise<Row> {
	const sandbox = await createClaudeSandbox();
	const tally = new Tally();
	const server = await startAnthropicServer(
		({ request }) => {
			if (scenario === "subagent") return subagentStep(tally, request);
			if (isSubagentRequest(request)) return { text: "Done." };
			if (tally.requests > CAP * 3) return { text: "Stopping here." };
			if (scenario === "verify") {
				const result = toolResults(request).at(-1)?.text ?? "";
				const move = noteWrite(tally, verifyMove(tally, claudePrompt(request), result, CLAUDE_GOAL, false));
				if (move.kind === "shell")
					return { toolUses: [{ name: "Bash", input: { command: move.command, description: "edit" } }] };
				return { text: move.kind === "talk" ? move.text : "The work is done." };
			}
			const next = tally.next(scenario, claudePrompt(request), CLAUDE_GOAL);
			if ("stop" in next) return { text: next.stop };
			return claudeStep(next.action);
		},
		{
			// An honest judge: met once every item is done, and not before.
			sideReply: (request) => {
				if (!isClaudeJudge(request)) return defaultSideReply(request);
				const met = scenario === "verify" ? greetingWritten(sandbox.project) === 1 : tally.done === itemsOf(scenario);
				return {
					text: JSON.stringify(met ? { ok: true, reason: "every item is done" } : { ok: false, reason: CLAUDE_GOAL }),
				};
			},
		},
	);
	try {
		const { boulderOk } = boulderIn(() => claudePlace(sandbox));
		if (mode !== "built-in") await boulderOk("install", "claude-code", "--project");
		if (scenario === "verify") {
			await writeProjectFiles(sandbox.project, VERIFY_FILES);
			if (mode !== "built-in") await boulderOk("start", "plan.md");
		}
		const run = await runClaude(sandbox, {
			prompt: mode === "boulder" ? promptOf(scenario) : `/goal ${promptOf(scenario)}`,
			baseUrl: server.url,
			env: { CLAUDE_CODE_ENABLE_TASKS: "0" },
			timeoutMs: RUN_MS,
		});
		if (scenario === "verify") tally.done = greetingWritten(sandbox.project);
		return row("Claude Code 2.1.332 /goal", scenario, mode, tally, !run.timedOut && tally.continuations() < CAP);
	} finally {
		await server.close();
		await sandbox.dispose();
	}
}

// ---- OpenAI-chat harnesses (Copilot, Qwen) ---------------------------------

/** The request's last message as a prompt, or null when it is a tool result. */
function chatPrompt(messages: ChatMessage[] | undefined): string | null {
	const last = messages?.at(-1);
	if (last === undefined || last.role === "tool") return null;
	return contentText(last.content);
}

function copilotStep(action: Action): ModelStep {
	const sql = (query: string): ModelStep => ({ toolCalls: [{ name: "sql", args: { description: "todos", query } }] });
	switch (action.kind) {
		case "list":
			return action.words === "Item"
				? sql(
						`INSERT INTO todos (id, title) VALUES ${numbers(action.total)
							.map((index) => `('i${index}', 'Item ${index}')`)
							.join(", ")}`,
					)
				: sql(`UPDATE todos SET title = '${action.words} ' || substr(id, 2)`);
		case "finish":
			return sql(`UPDATE todos SET status = 'done' WHERE id = 'i${action.item}'`);
		case "done":
			return { toolCalls: [{ name: "task_complete", args: { summary: "All the items are done." } }] };
		case "talk":
			return { text: action.text };
	}
}

function qwenStep(action: Action): ModelStep {
	const list = (words: string, done: number, total: number) => ({
		toolCalls: [
			{
				name: "todo_write",
				args: {
					todos: numbers(total).map((index) => ({
						id: String(index),
						content: `${words} ${index}`,
						status: index <= done ? "completed" : "pending",
					})),
				},
			},
		],
	});
	switch (action.kind) {
		case "list":
			return list(action.words, 0, action.total);
		case "finish":
			return list("Item", action.item, action.total);
		case "done":
			return { text: "All the items are done." };
		case "talk":
			return { text: action.text };
	}
}

const COPILOT_AUTOPILOT = "You have not yet marked the task as complete";
const QWEN_GOAL = "Continue working on the active Goal";

async function runChatCell(harness: "copilot" | "qwen", scenario: Scenario, mode: Mode): Promise<Row> {
	const tally = new Tally();
	const marker = harness === "copilot" ? COPILOT_AUTOPILOT : QWEN_GOAL;
	const server = await startModelServer({
		scenario: ({ request }) => {
			if (tally.requests > CAP * 3) return { text: "Stopping here." };
			if (scenario === "verify") {
				const messages = request.body.messages;
				const last = messages?.at(-1);
				const result = last?.role === "tool" ? contentText(last.content) : "";
				const doneTool = harness === "copilot" && mode !== "boulder";
				const move = noteWrite(tally, verifyMove(tally, chatPrompt(messages), result, marker, doneTool));
				if (move.kind === "shell") {
					const name = harness === "copilot" ? "bash" : "run_shell_command";
					return { toolCalls: [{ name, args: { command: move.command, description: "Run a command" } }] };
				}
				if (move.kind === "done")
					return { toolCalls: [{ name: "task_complete", args: { summary: "The work is done." } }] };
				return { text: move.text };
			}
			const next = tally.next(scenario, chatPrompt(request.body.messages), marker);
			if ("stop" in next) return { text: next.stop };
			if (next.action.kind === "done" && !(harness === "copilot" && mode !== "boulder")) {
				return { text: "All the items are done." };
			}
			return harness === "copilot" ? copilotStep(next.action) : qwenStep(next.action);
		},
		fallback: { text: "Stopping here." },
	});
	const prompt = promptOf(scenario);
	try {
		if (harness === "copilot") {
			const sandbox = await createCopilotSandbox();
			try {
				const { boulderOk } = boulderIn(() => copilotPlace(sandbox));
				if (mode !== "built-in") await boulderOk("install", "copilot", "--project");
				if (scenario === "verify") {
					await writeProjectFiles(sandbox.project, VERIFY_FILES);
					if (mode !== "built-in") await boulderOk("start", "plan.md");
				}
				const args = mode === "boulder" ? [] : ["--autopilot", "--max-autopilot-continues", String(CAP)];
				const run = await runCopilot(sandbox, { prompt, baseUrl: server.baseUrl, args, timeoutMs: RUN_MS });
				if (scenario === "verify") tally.done = greetingWritten(sandbox.project);
				return row("Copilot 1.0.102 --autopilot", scenario, mode, tally, !run.timedOut && tally.continuations() < CAP);
			} finally {
				await sandbox.dispose();
			}
		}
		const sandbox = await createQwenSandbox({ model: { name: "m", goalMaxTurns: CAP } });
		try {
			const { boulderOk } = boulderIn(() => qwenPlace(sandbox));
			if (mode !== "built-in") await boulderOk("install", "qwen", "--project");
			if (scenario === "verify") {
				await writeProjectFiles(sandbox.project, VERIFY_FILES);
				if (mode !== "built-in") await boulderOk("start", "plan.md");
			}
			const run = await runQwen(sandbox, {
				prompt: mode === "boulder" ? prompt : `/goal ${prompt}`,
				baseUrl: server.baseUrl,
				timeoutMs: RUN_MS,
			});
			if (scenario === "verify") tally.done = greetingWritten(sandbox.project);
			return row("Qwen Code 0.24.4 goals", scenario, mode, tally, !run.timedOut && tally.continuations() < CAP);
		} finally {
			await sandbox.dispose();
		}
	} finally {
		await server.close();
	}
}

function promptOf(scenario: Scenario): string {
	// The built-in mode is told the same acceptance command the plan's verify runs.
	if (scenario === "verify") return "Roll the plan in plan.md; it is done when `node check.mjs` passes.";
	return `Work through items 1 to ${itemsOf(scenario)}.`;
}

function row(harness: string, scenario: Scenario, mode: Mode, tally: Tally, stopped: boolean): Row {
	return {
		harness,
		scenario,
		mode,
		boulderNudges: tally.nudges,
		builtinContinuations: tally.builtin,
		requests: tally.requests,
		itemsDone: tally.done,
		stopped,
		right: rightOutcome(scenario, tally, stopped),
	};
}

const ORDER: Record<string, number> = {
	lazy: 0,
	long: 1,
	stalled: 2,
	question: 3,
	churn: 4,
	abort: 5,
	subagent: 6,
	verify: 7,
};

/** Harness by name, then scenario and mode in the order of the lists above. */
function byCell(a: Row, b: Row): number {
	return (
		a.harness.localeCompare(b.harness) ||
		(ORDER[a.scenario] ?? 9) - (ORDER[b.scenario] ?? 9) ||
		MODES.indexOf(a.mode) - MODES.indexOf(b.mode)
	);
}

function table(all: Row[]): string {
	const lines = [
		"| harness | scenario | mode | boulder nudges | built-in continuations | model requests | items done | stopped | right outcome |",
		"|---|---|---|---|---|---|---|---|---|",
	];
	for (const r of all) {
		lines.push(
			`| ${r.harness} | ${r.scenario} | ${r.mode} | ${r.boulderNudges} | ${r.builtinContinuations} | ${r.requests} | ${r.scenario === "lazy" || r.scenario === "long" ? `${r.itemsDone}/${itemsOf(r.scenario)}` : "–"} | ${r.stopped ? "yes" : `no (cap ${CAP})`} | ${r.right ? "yes" : "**no**"} |`,
		);
	}
	return lines.join("\n");
}

const HARNESSES = (process.env.BOULDER_COMPARE_HARNESSES?.split(",") ?? ["claude", "codex", "copilot", "qwen"]) as (
	| "claude"
	| "codex"
	| "copilot"
	| "qwen"
)[];

describe.skipIf(!ON)("boulder beside the built-in goal modes (BOULDER_COMPARE=1)", () => {
	afterAll(async () => {
		if (rows.length === 0) return;
		await mkdir(RESULTS, { recursive: true });
		// A run of some cells replaces those cells of earlier runs and keeps the rest, in a fixed order.
		const file = join(RESULTS, "compare-goals.json");
		const earlier = JSON.parse(await readFile(file, "utf8").catch(() => '{"rows":[]}')) as { rows: Row[] };
		const key = (one: Row) => `${one.harness}|${one.scenario}|${one.mode}`;
		const ran = new Set(rows.map(key));
		const all = [...earlier.rows.filter((one) => !ran.has(key(one))), ...rows].sort(byCell);
		const when = new Date().toISOString();
		await writeFile(file, `${JSON.stringify({ when, cap: CAP, rows: all }, null, 2)}\n`);
		await writeFile(join(RESULTS, "compare-goals.md"), `Last run ${when}, one run per cell.\n\n${table(all)}\n`);
	});

	for (const harness of HARNESSES) {
		// Esc/abort needs a live session to interrupt: only Codex's app-server has one headless; the header says why.
		// verify on Qwen Code is left out: its edit guard wants a read_file before the tick, and its goal
		// completes through the model's update_goal proposal and its verifier, which this script does not play yet.
		for (const scenario of SCENARIOS.filter(
			(one) =>
				(one !== "abort" || harness === "codex") &&
				(one !== "verify" || harness !== "qwen") &&
				(one !== "subagent" || harness === "claude"),
		)) {
			for (const mode of MODES) {
				it(
					`${harness} · ${scenario} · ${mode}`,
					async () => {
						const result =
							harness === "claude"
								? await runClaudeCell(scenario, mode)
								: harness === "codex"
									? await runCodexCell(scenario, mode)
									: await runChatCell(harness, scenario, mode);
						rows.push(result);
						expect(result.requests).toBeGreaterThan(0);
					},
					RUN_MS + 60_000,
				);
			}
		}
	}
});
