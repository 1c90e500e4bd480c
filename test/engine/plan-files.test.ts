import { existsSync } from "node:fs";
import { rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BoulderError } from "../../src/core/errors.js";
import { filePlans, MAX_PLAN_BYTES } from "../../src/engine/plan-files.js";
import { startWork } from "../../src/engine/works-ops.js";
import { makeFifo } from "../support/fifo.js";
import { clock, fileEngine, main, tempWorktree, turnThenIdle, writePlan } from "./helpers.js";

const posix = process.platform !== "win32";
const PLAN = "# Ship it\n\n- [x] write\n- [ ] test\n";

async function rejection(promise: Promise<unknown>): Promise<unknown> {
	return promise.then(
		() => {
			throw new Error("expected a rejection");
		},
		(error: unknown) => error,
	);
}

describe("reading plan files", () => {
	it("reads a plan, and answers null for one that does not exist", async () => {
		const worktree = await tempWorktree();
		await writePlan(worktree, "plan.md", PLAN);

		expect(await filePlans.read(worktree, "plan.md")).toBe(PLAN);
		expect(await filePlans.read(worktree, "other.md")).toBeNull();
	});

	it.runIf(posix)("refuses a FIFO named as a plan with an error naming it, instead of hanging", async () => {
		const worktree = await tempWorktree();
		makeFifo(path.join(worktree, "f.md"));

		const error = await rejection(filePlans.read(worktree, "f.md"));

		expect(error).toBeInstanceOf(BoulderError);
		expect(error).toMatchObject({
			code: "plan-invalid",
			message: "cannot use f.md as a plan: it is a FIFO (named pipe), not a regular file",
		});
	});

	it.runIf(posix && existsSync("/dev/zero"))("refuses a link to /dev/zero instead of reading without end", async () => {
		const worktree = await tempWorktree();
		await symlink("/dev/zero", path.join(worktree, "plan.md"));

		const error = await rejection(filePlans.read(worktree, "plan.md"));

		expect(error).toMatchObject({
			code: "plan-invalid",
			// The link leads out of the worktree: refused before the device is even looked at.
			message: "cannot use plan.md as a plan: it leads outside the worktree",
		});
	});

	it("refuses a plan larger than 4 MB", async () => {
		const worktree = await tempWorktree();
		await writePlan(worktree, "huge.md", `- [ ] one\n${"x".repeat(MAX_PLAN_BYTES)}`);

		const error = await rejection(filePlans.read(worktree, "huge.md"));

		expect(error).toMatchObject({
			code: "plan-invalid",
			message: "cannot use huge.md as a plan: it is larger than 4 MB, the most boulder reads",
		});
	});

	it.runIf(posix)("makes `start` fail with that error, and starts nothing", async () => {
		const worktree = await tempWorktree();
		makeFifo(path.join(worktree, "f.md"));
		const { store } = fileEngine(worktree);

		const error = await rejection(startWork({ store, clock, plans: filePlans }, { planPath: "f.md", cwd: worktree }));

		expect(error).toMatchObject({ code: "plan-invalid", message: expect.stringContaining("f.md") });
		expect((await store.readWorks()).kind).toBe("missing");
	});
});

describe("a plan that became unreadable while its work is active", () => {
	it.runIf(posix)("is never continued: the decision says the plan cannot be read, and why", async () => {
		const worktree = await tempWorktree();
		await writePlan(worktree, "plan.md", PLAN);
		const { engine, store } = fileEngine(worktree);
		await startWork({ store, clock, plans: filePlans }, { planPath: "plan.md", cwd: worktree, session: main });
		await rm(path.join(worktree, "plan.md"));
		makeFifo(path.join(worktree, "plan.md"));
		await engine.turnStarted(main, "user");

		const result = await turnThenIdle(engine, main);

		expect(result).toMatchObject({ kind: "skip", reason: "no-open-work" });
		expect(result.detail).toBe("the plan file plan.md cannot be read: it is a FIFO (named pipe), not a regular file");
		expect((await store.readDecisions()).at(-1)).toMatchObject({ reason: "no-open-work", detail: result.detail });
	});

	it("is never continued when the plan source fails in another way either", async () => {
		const worktree = await tempWorktree();
		await writePlan(worktree, "plan.md", PLAN);
		const { engine, store } = fileEngine(worktree);
		await startWork({ store, clock, plans: filePlans }, { planPath: "plan.md", cwd: worktree, session: main });
		await writeFile(path.join(worktree, "plan.md"), `${PLAN}${"x".repeat(MAX_PLAN_BYTES)}`);
		await engine.turnStarted(main, "user");

		const result = await turnThenIdle(engine, main);

		expect(result).toMatchObject({ kind: "skip", reason: "no-open-work" });
		expect(result.detail).toContain("larger than 4 MB");
	});
});
