/**
 * A long list worked through steadily is finished under the default config:
 * through the real engine and the real file store, one item per turn, each
 * turn billed like a real expensive one (no cache reads), a few minutes apart.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Todo } from "../../src/core/todos.js";
import type { IdleResult } from "../../src/engine/engine.js";
import { startWork } from "../../src/engine/works-ops.js";
import { clock, fileEngine, main, tempWorktree, tick } from "./helpers.js";

const ITEMS = 100;
const SPEND = { input: 110_000, output: 6_000, cacheWrite: 4_000 };

describe("budgets that follow the work, through the engine", () => {
	it(`finishes a ${ITEMS}-item todo list completed one item per turn`, async () => {
		const { engine } = fileEngine(await tempWorktree());
		const list: Todo[] = Array.from({ length: ITEMS }, (_, n) => ({ content: `item ${n + 1}`, status: "pending" }));
		await engine.turnStarted(main, "user");
		const results: IdleResult[] = [];
		for (let done = 0; done <= ITEMS; done++) {
			tick(4 * 60_000);
			await engine.todosChanged(
				main,
				list.map((todo, n) => ({ ...todo, status: n < done ? "completed" : "pending" })),
			);
			await engine.turnEnded(main, { outcome: "end", spend: SPEND });
			const result = await engine.onIdle(main, { lastAssistantText: "Done with that one." });
			results.push(result);
			if (result.kind !== "inject") break;
			await engine.delivered(main, result.key);
		}
		expect(results.filter((result) => result.kind === "inject")).toHaveLength(ITEMS);
		expect(results.at(-1)?.kind).toBe("complete");
	});

	it(`finishes a ${ITEMS}-item plan completed one item per turn`, async () => {
		const worktree = await tempWorktree();
		const { engine, store } = fileEngine(worktree);
		const planFile = path.join(worktree, "plan.md");
		const write = (done: number) =>
			writeFile(
				planFile,
				`# Long plan\n\n${Array.from({ length: ITEMS }, (_, n) => `- [${n < done ? "x" : " "}] step ${n + 1}`).join("\n")}\n`,
			);
		await write(0);
		await startWork(
			{ store, clock, plans: { read: (w, p) => readFile(path.join(w, p), "utf8") } },
			{ planPath: "plan.md", cwd: worktree },
		);
		await engine.turnStarted(main, "user");
		const results: IdleResult[] = [];
		for (let done = 0; done <= ITEMS; done++) {
			tick(4 * 60_000);
			await write(done);
			await engine.turnEnded(main, { outcome: "end", spend: SPEND });
			const result = await engine.onIdle(main, { lastAssistantText: "Next one done." });
			results.push(result);
			if (result.kind !== "inject") break;
			await engine.delivered(main, result.key);
		}
		expect(results.filter((result) => result.kind === "inject")).toHaveLength(ITEMS);
		expect(results.at(-1)).toMatchObject({ kind: "complete", work: { name: "Long plan" } });
	});
});
