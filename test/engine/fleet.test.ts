/**
 * The dashboard's read model over the real file store: a look reads what
 * changed and nothing else, follows the decision log, and only looks (a bad
 * works file is reported and left where it is).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Fleet } from "../../src/engine/fleet.js";
import { KNOWN_SCOPES_EVERY } from "../../src/engine/fleet-worktree.js";
import { openWorkspace } from "../../src/engine/open.js";
import { PLAN, sandbox } from "../cli/helpers.js";

async function started() {
	const box = await sandbox();
	await box.write("PLAN.md", PLAN);
	expect((await box.run(["start", "PLAN.md"])).code).toBe(0);
	return box;
}

describe("the fleet read model", () => {
	it("reads every worktree of the index once, then only what changed", async () => {
		const box = await started();
		const fleet = new Fleet({ env: box.env });
		const first = await fleet.look();
		expect(first.changed).toEqual([box.worktree]);
		expect(fleet.snapshot().worktrees[0]?.works[0]?.progress).toMatchObject({ done: 1, total: 4 });
		expect(fleet.snapshot().timeline.map((r) => r.reason)).toEqual(["work-started"]);

		expect(await fleet.look()).toEqual({ changed: [], removed: [], fresh: [], index: false });

		await box.write("PLAN.md", PLAN.replace("- [ ] Write the status command", "- [x] Write the status command"));
		const planChanged = await fleet.look();
		expect(planChanged.changed).toEqual([box.worktree]);
		expect(fleet.snapshot().worktrees[0]?.works[0]?.progress).toMatchObject({ done: 2, total: 4 });
	});

	it("hands over each new decision once, and shows the session with its episode", async () => {
		const box = await started();
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s1" };
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		await engine.onIdle(ref);
		const change = await fleet.look();
		expect(change.fresh.map((r) => r.reason)).toEqual(["user-turn", "continue"]);
		expect((await fleet.look()).fresh).toEqual([]);
		const session = fleet.snapshot().worktrees[0]?.sessions[0];
		expect(session).toMatchObject({ harness: "claude-code", sessionId: "s1", work: "ship-the-cli" });
		expect(session?.state?.episode?.autoTurns).toBe(1);
		expect(session?.lastRecord?.reason).toBe("continue");
	});

	it("reads a folder that is no project from its state under the user's state folder, with the session's own list", async () => {
		const box = await sandbox();
		const anywhere = path.join(box.root, "downloads");
		await mkdir(anywhere);
		const { engine } = await openWorkspace({ cwd: anywhere, env: box.env, clock: box.clock });
		const ref = { harness: "claude-code", sessionId: "s1" };
		await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, [{ content: "tidy the docs", status: "pending" }]);
		await engine.turnEnded(ref, { outcome: "end" });
		expect((await engine.onIdle(ref)).kind).toBe("inject");
		// The next hook process to open the folder finds its state and lists it in the index.
		await openWorkspace({ cwd: anywhere, env: box.env, clock: box.clock });
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		const folder = fleet.snapshot().worktrees.find((worktree) => worktree.root === anywhere);
		expect(folder?.sessions[0]?.state?.todos).toEqual([{ content: "tidy the docs", status: "pending" }]);
		expect(await readdir(anywhere)).toEqual([]);
	});

	it("notices a scope file that became unreadable in place while it watches (its folder's stamp unchanged)", async () => {
		const box = await started();
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s1" };
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		await engine.onIdle(ref);
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		expect(fleet.snapshot().worktrees[0]?.sessions[0]?.problem).toBeNull();
		const scopes = path.join(box.worktree, ".boulder", "scopes");
		const [file] = await readdir(scopes);
		// Written in place (same inode, no rename): only the file's own stamp moves.
		await writeFile(path.join(scopes, file ?? ""), "{ not json, and longer than before to change the size");
		const changes = [];
		for (let n = 0; n < KNOWN_SCOPES_EVERY; n++) changes.push(...(await fleet.look()).changed);
		expect(changes).toEqual([box.worktree]);
		expect(fleet.snapshot().worktrees[0]?.sessions[0]?.problem).toContain("its state file could not be read");
	});

	it("reports a corrupt works file and leaves it in place", async () => {
		const box = await started();
		const works = path.join(box.worktree, ".boulder", "works.json");
		await writeFile(works, "{ not json");
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		expect(fleet.snapshot().worktrees[0]?.problem).toContain("the works file could not be read");
		expect(await readFile(works, "utf8")).toBe("{ not json");
		expect((await readdir(path.join(box.worktree, ".boulder"))).filter((name) => name.includes("corrupt"))).toEqual([]);
	});

	it("shows a worktree whose folder is gone as vanished", async () => {
		const box = await started();
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		await rm(box.worktree, { recursive: true, force: true });
		expect((await fleet.look()).changed).toEqual([box.worktree]);
		expect(fleet.snapshot().worktrees[0]).toMatchObject({ vanished: true });
	});
});
