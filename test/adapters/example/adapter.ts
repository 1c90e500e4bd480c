/**
 * A throwaway harness, "example", written the way a new adapter is: one
 * folder that fills the adapter contract, using only the engine, the core and
 * the presentation layer. Its hook reads `{ "session": …, "todos": [...] }` on
 * stdin for the event `TodoWrite`, and `{ "session": … }` for `Stop`, and
 * answers a nudge as `{ "continue": text }`. Installing it writes
 * `.example/hooks.json` in the project.
 *
 * The tests register it next to the real adapters and drive the real CLI: if
 * adding a harness needed an edit anywhere else, they could not pass.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { HarnessAdapter, InstallPlace } from "../../../src/adapters/types.js";
import { normalizeTodoList } from "../../../src/core/todo-normalize.js";
import { openWorkspace } from "../../../src/engine/open.js";

export const EXAMPLE = "example";

const TEXT = {
	installed: (file: string) => `Installed the example hook in ${file}.`,
	updated: (file: string) => `Updated the example hook in ${file}.`,
	unchanged: (file: string) => `The example hook is already in ${file}.`,
	removed: (file: string) => `Removed the example hook from ${file}.`,
	notInstalled: (file: string) => `The example hook is not in ${file}.`,
	backup: (file: string) => `Kept ${file}.`,
	restart: "Restart the example harness.",
};

const hooksFile = (place: Pick<InstallPlace, "cwd">) => path.join(place.cwd, ".example", "hooks.json");

export const exampleAdapter: HarnessAdapter = {
	name: EXAMPLE,
	title: "Example",
	program: "example-harness",
	scopes: [{ name: "project", help: "this project's .example/hooks.json (the default)" }],
	defaultScope: "project",
	async install(place) {
		const file = hooksFile(place);
		const had = existsSync(file);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, JSON.stringify({ Stop: "boulder hook example Stop" }));
		return {
			report: { file, action: had ? "unchanged" : "installed", backup: null, entries: 1 },
			text: TEXT,
			notes: [],
		};
	},
	async uninstall(place) {
		const file = hooksFile(place);
		if (!existsSync(file))
			return { report: { file, action: "absent", backup: null, entries: 0 }, text: TEXT, notes: [] };
		await rm(file);
		return { report: { file, action: "removed", backup: null, entries: 1 }, text: TEXT, notes: [] };
	},
	async installedScopes(place) {
		const file = hooksFile(place);
		return existsSync(file) ? [{ scope: "project", file }] : [];
	},
	doctor: {
		name: EXAMPLE,
		async run(context) {
			const file = hooksFile(context);
			return existsSync(file)
				? [{ check: EXAMPLE, level: "ok", message: `hook installed in ${file}`, fix: null }]
				: [{ check: EXAMPLE, level: "ok", message: "not installed", fix: null }];
		},
	},
	hook: {
		events: ["TodoWrite", "Stop"],
		async run(event, streams) {
			try {
				let text = "";
				for await (const chunk of streams.stdin) text += chunk.toString();
				const input = JSON.parse(text) as { session: string; todos?: unknown };
				const { engine } = await openWorkspace({ cwd: streams.cwd, env: streams.env });
				const ref = { harness: EXAMPLE, sessionId: input.session };
				if (event === "TodoWrite") {
					await engine.turnStarted(ref, "user");
					await engine.todosChanged(ref, exampleAdapter.normalizeTodos(input.todos).todos);
					return 0;
				}
				const result = await engine.turnEndedAndIdle(ref, { outcome: "end" }, {}, { deliverNow: true });
				if (result.kind === "inject") streams.stdout.write(JSON.stringify({ continue: result.text }));
			} catch (error) {
				streams.stderr.write(`boulder: example ${event} hook: ${String(error)}\n`);
			}
			return 0;
		},
	},
	normalizeTodos: (input) =>
		normalizeTodoList(input, { label: "example todos", listFields: ["todos"], text: "title", status: "state" }),
};

/** Read back by the test, to show the adapter is one file and which layers it uses. */
export const EXAMPLE_SOURCE = readFile(new URL(import.meta.url), "utf8");
