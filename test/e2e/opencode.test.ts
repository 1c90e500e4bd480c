/**
 * The OpenCode adapter end to end: the real `opencode serve` (the pinned
 * opencode-ai) against the scripted model server, with boulder loaded the way
 * a user loads it (`"plugin": ["boulder-agent"]`, from the built package),
 * and explained the way a user asks (`boulder why`, the real CLI).
 * Assertions are on what the model received and on what boulder says; never
 * on timings.
 *
 * Needs `npm run build`.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	contentText,
	type ModelStep,
	type RecordedRequest,
	type ScriptedModelServer,
	startModelServer,
} from "./support/openai-server.js";
import { type OpencodeServer, type PluginEntry, startOpencode } from "./support/opencode-run.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(REPO, "bin", "boulder.js");
const PLUGIN = join(REPO, "dist", "adapters", "opencode", "plugin.js");
const NUDGE = "[boulder · automatic continuation";
const TEST_TIMEOUT_MS = 120_000;

let model: ScriptedModelServer | undefined;
let oc: OpencodeServer | undefined;

beforeAll(() => {
	for (const file of [join(REPO, "dist", "cli", "main.js"), PLUGIN]) {
		if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
	}
});

afterEach(async () => {
	await oc?.dispose();
	oc = undefined;
	await model?.close();
	model = undefined;
});

interface Setup {
	config?: Record<string, unknown>;
	plugins?: PluginEntry[];
	files?: Record<string, string>;
	opencode?: Record<string, unknown>;
}

async function setUp(scenario: ModelStep[] | Parameters<ScriptedModelServer["setScenario"]>[0], setup: Setup = {}) {
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	model.setScenario(scenario);
	oc = await startOpencode({
		modelServerUrl: model.baseUrl,
		npmPackages: { "boulder-agent": REPO },
		plugins: setup.plugins ?? ["boulder-agent"],
		files: {
			"boulder.config.json": JSON.stringify({ countdownMs: 300, ...setup.config }),
			...setup.files,
		},
		...(setup.opencode ? { config: setup.opencode } : {}),
	});
	return { model, oc };
}

interface Cli {
	code: number;
	stdout: string;
	stderr: string;
}

/** The real CLI, in the project, with the server's HOME and XDG folders. */
async function boulder(...args: string[]): Promise<Cli> {
	const server = oc as OpencodeServer;
	const home = server.homeDir;
	const env = {
		...process.env,
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_STATE_HOME: join(home, ".local", "state"),
		XDG_CACHE_HOME: join(home, ".cache"),
		NO_COLOR: "1",
	};
	try {
		const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
			cwd: server.projectDir,
			env,
		});
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
	}
}

async function boulderOk(...args: string[]): Promise<string> {
	const result = await boulder(...args);
	if (result.code !== 0) throw new Error(`boulder ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
	return result.stdout;
}

async function decisions(): Promise<Record<string, unknown>[]> {
	const text = await readFile(join((oc as OpencodeServer).projectDir, ".boulder", "decisions.jsonl"), "utf8").catch(
		() => "",
	);
	return text
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The requests that a boulder nudge started: their very last message is the nudge. */
function nudges(server: ScriptedModelServer): RecordedRequest[] {
	return server.mainRequests().filter((request) => {
		const last = request.body.messages?.at(-1);
		return last?.role === "user" && contentText(last.content).includes(NUDGE);
	});
}

function todoWrite(statuses: string[]): ModelStep {
	const todos = statuses.map((status, index) => ({
		content: `Item ${String.fromCharCode(65 + index)}`,
		status,
		priority: "medium",
	}));
	return { toolCalls: [{ name: "todowrite", args: { todos } }] };
}

/** `done` items completed, the next one in progress, the rest pending. */
function progress(done: number, total: number): ModelStep {
	return todoWrite(
		Array.from({ length: total }, (_, index) =>
			index < done ? "completed" : index === done ? "in_progress" : "pending",
		),
	);
}

function say(text: string): ModelStep {
	return { text };
}

describe("boulder with the real OpenCode", () => {
	it(
		"carries a lazy agent through all four todos (todowrite), then lets it stop",
		async () => {
			const { model, oc } = await setUp([
				progress(0, 4),
				progress(1, 4),
				say("Finished item A."),
				progress(2, 4),
				say("Finished item B."),
				progress(3, 4),
				say("Finished item C."),
				progress(4, 4),
				say("All four items are done."),
			]);

			const { sessionID } = await oc.startTurn("Work through the list.");
			await model.waitForMainRequests(9, 60_000);
			await oc.waitForQuiet(sessionID, { quietMs: 2_000 });

			expect(model.overruns).toBe(0);
			expect(nudges(model)).toHaveLength(3);
			expect(model.lastUserText(nudges(model)[0])).toMatch(/1 of 4 done[\s\S]*Item B/);
			expect(await boulderOk("why")).toMatch(/complete/i);
		},
		TEST_TIMEOUT_MS,
	);
});
