// Proves the OpenCode e2e infrastructure end to end: the real `opencode serve`
// loads a local plugin the way a user's config would, the plugin can inject a
// prompt that reaches the scripted model, and the todo tool's updates reach both
// the plugin and the HTTP API.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { type OpencodeServer, sharedOpencode } from "./support/opencode-run.js";
import { waitUntil } from "./support/suite.js";

// A tiny plugin: records every event it sees; with `nudge` set, it sends that
// text once, as a synthetic part, on the first idle of each root session.
const smokePlugin = `
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

export const SmokePlugin = async ({ client, directory }, options = {}) => {
	const logFile = isAbsolute(options.log) ? options.log : join(directory, options.log);
	mkdirSync(dirname(logFile), { recursive: true });
	const record = (entry) => appendFileSync(logFile, JSON.stringify(entry) + "\\n");
	const nudged = new Set();
	record({ kind: "loaded" });
	return {
		event: async ({ event }) => {
			record({ kind: "event", type: event.type, properties: event.properties });
			if (!options.nudge || event.type !== "session.status" || event.properties.status?.type !== "idle") return;
			const id = event.properties.sessionID;
			if (nudged.has(id)) return;
			nudged.add(id);
			const session = await client.session.get({ path: { id } });
			if (session.data?.parentID) return;
			const res = await client.session.promptAsync({
				path: { id },
				body: { parts: [{ type: "text", text: options.nudge, synthetic: true, metadata: { boulderSmoke: { nudge: 1 } } }] },
			});
			record({ kind: "nudged", sessionID: id, status: res.response?.status });
		},
	};
};
`;

const pluginLog = ".smoke/plugin.jsonl";

interface LogEntry {
	kind: string;
	type?: string;
	sessionID?: string;
	status?: number;
	properties?: Record<string, unknown>;
}

/** How many times a session went idle since event index `from`. */
function idles(oc: OpencodeServer, sessionID: string, from: number): number {
	return oc.events
		.forSession(sessionID, from)
		.filter((e) => e.type === "session.status" && (e.properties.status as { type?: string })?.type === "idle").length;
}

async function readPluginLog(oc: OpencodeServer): Promise<LogEntry[]> {
	const text = await readFile(join(oc.projectDir, pluginLog), "utf8").catch(() => "");
	return text
		.split("\n")
		.filter((line) => line.trim())
		.map((line) => JSON.parse(line) as LogEntry);
}

// One server for the file; each test has its own project, with its own plugin entry, in it.
const shared = sharedOpencode();

describe("OpenCode e2e infrastructure", () => {
	let model: ScriptedModelServer;
	let oc: OpencodeServer | undefined;

	beforeEach(async () => {
		model = await startModelServer();
	});

	afterEach(async () => {
		await oc?.dispose();
		oc = undefined;
		await model.close();
	});

	it("delivers a plugin's synthetic prompt, sent on the first idle, to the model as a user message", async () => {
		const marker = "BOULDER-SMOKE-NUDGE-7f3a";
		model.setScenario([{ text: "First answer." }, { text: "Answer to the nudge." }]);
		oc = await shared.open({
			modelServerUrl: model.baseUrl,
			files: {
				"vendor/smoke-plugin/package.json": JSON.stringify({
					name: "boulder-smoke-plugin",
					version: "0.0.0",
					type: "module",
					exports: { "./server": "./index.js" },
				}),
				"vendor/smoke-plugin/index.js": smokePlugin,
			},
			npmPackages: { "boulder-smoke-plugin": "vendor/smoke-plugin" },
			plugins: [["boulder-smoke-plugin", { nudge: marker, log: pluginLog }]],
		});

		const { sessionID, from } = await oc.startTurn("Say hello.");
		await model.waitFor((s) => s.reached(marker, { role: "user", mainOnly: true }), 60_000);
		// The nudge's turn is over at the session's second idle; the plugin nudges once, so nothing follows it.
		await waitUntil(() => idles(oc as OpencodeServer, sessionID, from) >= 2, "the nudge's turn ended");
		const current = oc;
		await waitUntil(
			async () => (await readPluginLog(current)).some((e) => e.kind === "nudged"),
			"the plugin logged its nudge",
		);

		const nudgedRequests = model.mainRequests().filter((r) => model.lastUserText(r) === marker);
		expect(nudgedRequests).toHaveLength(1);
		expect(model.userTexts(nudgedRequests[0])).toEqual(["Say hello.", marker]);

		const messages = await oc.client.messages(sessionID);
		const nudgeParts = messages
			.filter((m) => m.info.role === "user")
			.flatMap((m) => m.parts)
			.filter((p) => p.type === "text" && p.text === marker);
		expect(nudgeParts).toHaveLength(1);
		expect(nudgeParts[0]).toMatchObject({ synthetic: true, metadata: { boulderSmoke: { nudge: 1 } } });

		const log = await readPluginLog(oc);
		expect(log.filter((e) => e.kind === "nudged")).toEqual([{ kind: "nudged", sessionID, status: 204 }]);
	}, 90_000);

	it("shows the todo tool's list to the plugin (todo.updated) and on GET /session/:id/todo", async () => {
		const todos = [
			{ content: "Write the parser", status: "in_progress", priority: "high" },
			{ content: "Test the parser", status: "pending", priority: "medium" },
		];
		model.setScenario([{ toolCalls: [{ name: "todowrite", args: { todos } }] }, { text: "Started on the parser." }]);
		oc = await shared.open({
			modelServerUrl: model.baseUrl,
			files: { "plugins/smoke-plugin.js": smokePlugin },
			plugins: [["./plugins/smoke-plugin.js", { log: pluginLog }]],
		});

		const { sessionID, from } = await oc.startTurn("Plan the parser work.");
		await oc.waitForIdle(sessionID, { from, timeoutMs: 60_000 });

		expect(model.toolNames(model.mainRequests()[0])).toContain("todowrite");
		const results = model.toolResults();
		expect(results).toHaveLength(1);
		expect(results[0]?.content).toContain("Write the parser");

		const log = await readPluginLog(oc);
		const seen = log.filter((e) => e.kind === "event" && e.type === "todo.updated");
		expect(seen.map((e) => e.properties)).toEqual([{ sessionID, todos }]);

		expect(await oc.client.todos(sessionID)).toEqual(todos);
	}, 90_000);
});
