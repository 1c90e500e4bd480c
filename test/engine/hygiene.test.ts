import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ConfigInput } from "../../src/core/config.js";
import type { Todo } from "../../src/core/todos.js";
import type { Engine, SessionRef } from "../../src/engine/engine.js";
import { startWork } from "../../src/engine/works-ops.js";
import { TALLY_RECORD_BYTES } from "../../src/state/scope-tally.js";
import { clock, fileEngine, main, other, tempWorktree, writePlan } from "./helpers.js";

const LIST: Todo[] = [
	{ content: "Parse the input", status: "completed" },
	{ content: "Wire the CLI", status: "in_progress" },
	{ content: "Release", status: "pending" },
];

const PLAN = "# Ship\n\n- [x] Parse the input\n- [ ] Wire the CLI\n- [ ] Release\n";

/** `count` edits of `file`, each by a fresh engine over the same worktree (Claude Code starts a process per edit); the reminders given, by edit. */
async function edits(
	worktree: string,
	count: number,
	options: { ref?: SessionRef; file?: string; config?: ConfigInput } = {},
) {
	const given: { edit: number; text: string }[] = [];
	for (let edit = 1; edit <= count; edit++) {
		const { engine } = fileEngine(worktree, options.config ?? {});
		const answer = await engine.fileChangeAsked(options.ref ?? main, {
			tool: "Edit",
			files: [path.join(worktree, options.file ?? "src/a.ts")],
		});
		if (answer.reminder !== null) given.push({ edit, text: answer.reminder });
	}
	return given;
}

async function reminders(
	engine: Engine | { store: { readDecisions(): Promise<{ reason: string; detail: string }[]> } },
) {
	const log = await ("store" in engine ? engine.store : engine).readDecisions();
	return log.filter((record) => record.reason === "todo-reminder");
}

function engineScope(worktree: string): string {
	const scope = fileEngine(worktree).engine.scopeOf(main);
	if (scope === null) throw new Error("no scope");
	return scope;
}

async function planned(config: ConfigInput = {}) {
	const worktree = await tempWorktree();
	await writePlan(worktree, "PLAN.md", PLAN);
	const { store } = fileEngine(worktree, config);
	const plans = { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") };
	await startWork({ store, clock, plans }, { planPath: "PLAN.md", cwd: worktree, session: main });
	return worktree;
}

describe("todo hygiene through the engine and the file store", () => {
	it("reminds a session rolling its own list once per stretch, logged, and again after the list changes", async () => {
		const worktree = await tempWorktree();
		const { engine, store } = fileEngine(worktree);
		await engine.todosChanged(main, LIST);
		const first = await edits(worktree, 20);
		expect(first.map((given) => given.edit)).toEqual([8]);
		expect(first[0]?.text).toContain("since your todo list last changed, and it still shows 2 open items");
		const logged = await reminders({ store });
		expect(logged).toHaveLength(1);
		expect(logged[0]?.detail).toBe(
			"the agent changed files 8 times since its todo list last changed, with 2 open items; it was reminded to update the list",
		);

		await engine.todosChanged(
			main,
			LIST.map((todo, index) => (index === 1 ? { ...todo, status: "completed" } : todo)),
		);
		expect((await edits(worktree, 8)).map((given) => given.edit)).toEqual([8]);
		expect(await reminders({ store })).toHaveLength(2);
	});

	it("counts against the bound plan: editing the plan file keeps the list, ticking an item starts a new stretch", async () => {
		const worktree = await planned({ hygiene: { editsBeforeReminder: 3 } });
		const config = { hygiene: { editsBeforeReminder: 3 } };
		expect(await edits(worktree, 2, { config })).toEqual([]);
		expect(await edits(worktree, 1, { config, file: "PLAN.md" })).toEqual([]);
		expect(await edits(worktree, 2, { config })).toEqual([]);
		await writePlan(worktree, "PLAN.md", PLAN.replace("- [ ] Wire", "- [x] Wire"));
		const given = await edits(worktree, 4, { config });
		expect(given.map((reminder) => reminder.edit)).toEqual([3]);
		expect(given[0]?.text).toContain('since the plan "Ship" (`PLAN.md`) last changed, and it still shows 1 open item.');
	});

	it("never rewrites the session's record: every change is a mark in the tally, the reminder included", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree);
		await engine.todosChanged(main, LIST);
		const record = path.join(worktree, ".boulder", "scopes", `${engineScope(worktree)}.json`);
		const before = await readFile(record);
		const { ino } = await stat(record);
		const given = await edits(worktree, 10);
		expect(given.map((reminder) => reminder.edit)).toEqual([8]);
		expect((await stat(record)).ino).toBe(ino);
		expect(await readFile(record)).toEqual(before);
		expect((await stat(record.replace(/\.json$/, ".tally"))).size).toBe(10 * TALLY_RECORD_BYTES);
	});

	it("takes over a record an earlier version kept the stretch in: read as valid, the stretch counted afresh", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree);
		await engine.todosChanged(main, LIST);
		const record = path.join(worktree, ".boulder", "scopes", `${engineScope(worktree)}.json`);
		const file = JSON.parse(await readFile(record, "utf8"));
		file.state.hygiene = { list: "0123456789abcdef", edits: 7, reminded: false, at: 7 };
		await writeFile(record, JSON.stringify(file));
		await writeFile(record.replace(/\.json$/, ".tally"), "0000abcd\n".repeat(7));
		expect((await edits(worktree, 8)).map((reminder) => reminder.edit)).toEqual([8]);
		const { store } = fileEngine(worktree);
		expect((await store.readScope(engineScope(worktree))).kind).toBe("ok");
		expect(await store.problems()).toEqual([]);
	});

	it("reminds once when edits arrive at once, each in its own engine", async () => {
		const worktree = await tempWorktree();
		await fileEngine(worktree).engine.todosChanged(main, LIST);
		const asked = Array.from({ length: 12 }, () =>
			fileEngine(worktree, { hygiene: { editsBeforeReminder: 4 } }).engine.fileChangeAsked(main, {
				tool: "Edit",
				files: [path.join(worktree, "src/a.ts")],
			}),
		);
		const answers = await Promise.all(asked);
		expect(answers.filter((answer) => answer.reminder !== null)).toHaveLength(1);
		expect(await reminders(fileEngine(worktree).engine)).toHaveLength(1);
	});

	it("never counts for a subagent, a session whose work is bound elsewhere, or when turned off", async () => {
		const worktree = await planned({ hygiene: { editsBeforeReminder: 2 } });
		const config = { hygiene: { editsBeforeReminder: 2 } };
		expect(await edits(worktree, 5, { config, ref: { ...main, subagent: true } })).toEqual([]);
		expect(await edits(worktree, 5, { config, ref: other })).toEqual([]);
		expect(await edits(worktree, 5, { config: { hygiene: { editsBeforeReminder: false } } })).toEqual([]);
		const { store } = fileEngine(worktree);
		expect(await reminders({ store })).toEqual([]);
		const tally = path.join(worktree, ".boulder", "scopes", `${engineScope(worktree)}.tally`);
		await expect(stat(tally)).rejects.toMatchObject({ code: "ENOENT" });
	});

	it("does not count an orchestrator's edit that is refused, and adds the reminder to a warning", async () => {
		const worktree = await tempWorktree();
		await writePlan(worktree, "PLAN.md", `---\nmode: orchestrate\n---\n${PLAN}`);
		const { store } = fileEngine(worktree);
		const plans = { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") };
		await startWork({ store, clock, plans }, { planPath: "PLAN.md", cwd: worktree, session: main });
		const deny = { hygiene: { editsBeforeReminder: 1 }, orchestrate: { edits: "deny" as const } };
		expect(await edits(worktree, 3, { config: deny })).toEqual([]);
		const { engine } = fileEngine(worktree, { hygiene: { editsBeforeReminder: 1 } });
		const answer = await engine.fileChangeAsked(main, { tool: "Write", files: ["src/a.ts"] });
		expect(answer.verdict.kind).toBe("warn");
		expect(answer.reminder).toContain("changed files 1 time since the plan");
	});
});
