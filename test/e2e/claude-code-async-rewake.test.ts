/**
 * What a watchdog on Claude Code's background work can stand on, pinned
 * against the real binary: a background subagent holds a `claude -p` run open
 * (the parent waits for its end, and no hook runs meanwhile), and a Stop hook
 * registered with `asyncRewake: true` keeps running after the turn ended and
 * wakes the parent by exiting 2 — its stderr reaches the model as "Stop hook
 * feedback", while the subagent still runs. The woken parent can then stop
 * the task (`TaskStop`), and the run ends.
 *
 * With boulder installed, its own watcher (the second Stop registration,
 * `Watchdog`, an `asyncRewake` hook) is what wakes the parent: at the
 * subagent's deadline, timed from the first Stop that listed it, with the
 * nudge naming the overdue task.
 *
 * The second test needs `npm run build`.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	lastUserText,
	type Step,
	startAnthropicServer,
	toolResults,
} from "./support/anthropic-server.js";
import { boulderIn } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude, writeProjectSettings } from "./support/claude-run.js";
import { CLAUDE_HOOK, NUDGE, readJsonLines, requireBuilt } from "./support/suite.js";

const RUN_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 120_000;
/** Far longer than the run may last: the subagent is wedged unless someone stops it. */
const WEDGED_MS = 600_000;
const NOTE = "wake-probe: still running:";

/**
 * Records each Stop input; on the first Stop that lists running tasks, waits
 * a moment (the turn has ended by then) and exits 2 with a note naming them.
 */
const WAKE_ONCE_HOOK = `
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
const [log, flag, note, delayMs] = process.argv.slice(2);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
	appendFileSync(log, input.trim() + "\\n");
	const running = (JSON.parse(input).background_tasks ?? []).filter((task) => task.status === "running");
	if (running.length === 0 || existsSync(flag)) return;
	writeFileSync(flag, "woken");
	setTimeout(() => {
		process.stderr.write(note + " " + running.map((task) => task.id).join(" "));
		process.exit(2);
	}, Number(delayMs));
});
`;

let server: AnthropicServer | undefined;
let sandbox: ClaudeSandbox;

beforeEach(async () => {
	sandbox = await createSandbox();
});

afterEach(async () => {
	await server?.close();
	server = undefined;
	await sandbox.dispose();
});

/** A Stop group running the wake-once hook in the background, waking the parent `delayMs` after the turn ended. */
async function wakeOnceGroup(log: string, delayMs: number): Promise<Record<string, unknown>> {
	const script = join(sandbox.root, "wake-once.mjs");
	await writeFile(script, WAKE_ONCE_HOOK);
	const words = [process.execPath, script, log, `${log}.flag`, NOTE, String(delayMs)];
	const command = words.map((part) => JSON.stringify(part)).join(" ");
	return { hooks: [{ type: "command", command, asyncRewake: true, timeout: 60 }] };
}

/** The parent delegates into the background, ends its turn, and stops the task once it is woken about it. */
function parentScript(): (turn: { request: Parameters<typeof lastUserText>[0] }) => Step {
	let parentTurn = 0;
	return ({ request }) => {
		if (isSubagentRequest(request)) return { text: "The helper's late answer.", delayMs: WEDGED_MS };
		parentTurn++;
		if (parentTurn === 1) {
			const input = { description: "slow helper", prompt: "Do the slow part.", run_in_background: true };
			return {
				text: "Delegating.",
				toolUses: [{ name: "Agent", input: { ...input, subagent_type: "general-purpose" } }],
			};
		}
		const woken = new RegExp(`${NOTE} (\\S+)`).exec(lastUserText(request));
		if (woken?.[1] && parentTurn <= 3)
			return { text: "Stopping it.", toolUses: [{ name: "TaskStop", input: { task_id: woken[1] } }] };
		return { text: parentTurn === 2 ? "Waiting for the helper." : "Stopped the helper." };
	};
}

it(
	"an asyncRewake Stop hook wakes a parent that waits on a wedged background subagent",
	async () => {
		server = await startAnthropicServer(parentScript());
		const log = join(sandbox.root, "stop-inputs.jsonl");
		await writeProjectSettings(sandbox, { hooks: { Stop: [await wakeOnceGroup(log, 1000)] } });

		const run = await runClaude(sandbox, { prompt: "Do the work.", baseUrl: server.url, timeoutMs: RUN_TIMEOUT_MS });

		expect(run.timedOut).toBe(false);
		expect(run.exitCode).toBe(0);
		const stops = (await readJsonLines(log)) as { background_tasks?: Record<string, unknown>[] }[];
		const first = stops[0]?.background_tasks ?? [];
		expect(first).toEqual([
			expect.objectContaining({
				type: "subagent",
				status: "running",
				description: "slow helper",
				agent_type: "general-purpose",
			}),
		]);
		const taskId = String(first[0]?.id);
		const parent = server.mainRequests().filter((request) => !isSubagentRequest(request));
		const wake = parent.find((request) => lastUserText(request).includes(NOTE));
		if (wake === undefined) throw new Error("no parent request carried the hook's note");
		expect(lastUserText(wake)).toContain("Stop hook feedback");
		expect(lastUserText(wake)).toContain(`${NOTE} ${taskId}`);
		// The wake came while the subagent still ran: the parent could stop it, and only then did the run end.
		const last = parent[parent.length - 1];
		if (last === undefined) throw new Error("no parent request");
		expect(toolResults(last).some((result) => result.text.includes(taskId) && !result.is_error)).toBe(true);
		expect(run.json?.result).toBe("Stopped the helper.");
	},
	TEST_TIMEOUT_MS,
);

const LIMIT_MS = 3_000;
const { boulderOk } = boulderIn(() => cliPlace(sandbox));

it(
	"with boulder, its watcher wakes the parent at the wedged subagent's deadline with the nudge naming it",
	async () => {
		requireBuilt(CLAUDE_HOOK);
		await boulderOk("install", "claude-code", "--project");
		await writeFile(join(sandbox.project, "boulder.config.json"), JSON.stringify({ watchdog: { limitMs: LIMIT_MS } }));
		const todos = (status: string) => [
			{ content: "Item A", status, activeForm: "Doing item A" },
			{ content: "Item B", status, activeForm: "Doing item B" },
		];
		let parentTurn = 0;
		let stopped = false;
		server = await startAnthropicServer(({ request }) => {
			if (isSubagentRequest(request)) return { text: "The helper's late answer.", delayMs: WEDGED_MS };
			parentTurn++;
			const text = lastUserText(request);
			if (parentTurn === 1) {
				const agent = { description: "slow helper", prompt: "Do item A.", run_in_background: true };
				return {
					toolUses: [
						{ name: "TodoWrite", input: { todos: todos("pending") } },
						{ name: "Agent", input: { ...agent, subagent_type: "general-purpose" } },
					],
				};
			}
			const overdue = /- (\S+) \(general-purpose\): running for/.exec(text);
			if (text.includes(NUDGE) && overdue?.[1] && !stopped) {
				stopped = true;
				return {
					text: "The helper is wedged; stopping it and doing the items myself.",
					toolUses: [
						{ name: "TaskStop", input: { task_id: overdue[1] } },
						{ name: "TodoWrite", input: { todos: todos("completed") } },
					],
				};
			}
			return { text: stopped ? "All done." : "Waiting for the helper." };
		});

		const run = await runClaude(sandbox, {
			prompt: "Do the work.",
			baseUrl: server.url,
			env: { CLAUDE_CODE_ENABLE_TASKS: "0" },
			timeoutMs: RUN_TIMEOUT_MS,
		});

		expect(run.timedOut).toBe(false);
		expect(run.json?.result).toBe("All done.");
		const parent = server.mainRequests().filter((request) => !isSubagentRequest(request));
		const nudges = parent.filter((request) => lastUserText(request).includes(NUDGE));
		expect(nudges).toHaveLength(1);
		// The nudge came as the watcher's wake, while the parent waited (no Stop answered it).
		expect(lastUserText(nudges[0] as (typeof parent)[number])).toContain("Stop hook feedback");
		const why = await boulderOk("why", "-n", "20");
		expect(why).toMatch(/1 background task\(s\) still running; deciding again when they finish or run past/);
		expect(why).toMatch(/not waiting for \S+ \(general-purpose\) has run \d+ s, past its limit of 3 s/);
		expect(why).toContain("decided at the deadline of a task the session waited on");
	},
	TEST_TIMEOUT_MS,
);

it(
	"with boulder, a subagent that returns within its limit wakes the parent itself: the watcher wakes nothing",
	async () => {
		await boulderOk("install", "claude-code", "--project");
		await writeFile(join(sandbox.project, "boulder.config.json"), JSON.stringify({ watchdog: { limitMs: 600_000 } }));
		const todos = (status: string) => [{ content: "Item A", status, activeForm: "Doing item A" }];
		let parentTurn = 0;
		server = await startAnthropicServer(({ request }) => {
			if (isSubagentRequest(request)) return { text: "Item A is written.", delayMs: 3_000 };
			parentTurn++;
			if (parentTurn === 1) {
				const agent = { description: "helper", prompt: "Do item A.", run_in_background: true };
				return {
					toolUses: [
						{ name: "TodoWrite", input: { todos: todos("pending") } },
						{ name: "Agent", input: { ...agent, subagent_type: "general-purpose" } },
					],
				};
			}
			if (lastUserText(request).includes("Item A is written."))
				return { text: "Done.", toolUses: [{ name: "TodoWrite", input: { todos: todos("completed") } }] };
			return { text: parentTurn === 2 ? "Waiting for the helper." : "All done." };
		});

		const run = await runClaude(sandbox, {
			prompt: "Do the work.",
			baseUrl: server.url,
			env: { CLAUDE_CODE_ENABLE_TASKS: "0" },
			timeoutMs: RUN_TIMEOUT_MS,
		});

		// A watcher still running holds back the notification that wakes the parent: it must end when the subagent does.
		expect(run.timedOut).toBe(false);
		expect(run.json?.result).toBe("All done.");
		const parent = server.mainRequests().filter((request) => !isSubagentRequest(request));
		expect(parent.some((request) => lastUserText(request).includes("<task-notification>"))).toBe(true);
		expect(parent.filter((request) => lastUserText(request).includes("Stop hook feedback"))).toEqual([]);
		expect(parent.filter((request) => lastUserText(request).includes(NUDGE))).toEqual([]);
		const why = await boulderOk("why", "-n", "20");
		expect(why).toMatch(/1 background task\(s\) still running/);
		expect(why).not.toContain("decided at the deadline");
	},
	TEST_TIMEOUT_MS,
);
