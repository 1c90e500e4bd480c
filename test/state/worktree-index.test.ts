/**
 * The per-user index of worktrees: where it lives, first/last seen times,
 * modes, and a bad index moved aside and rebuilt.
 */

import { readdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
	boulderStateHome,
	listWorktrees,
	readWorktreeIndex,
	recordWorktree,
	worktreeIndexFile,
} from "../../src/state/worktree-index.js";
import { FIXED_NOW, fixedClock, modeOf, tempDir } from "./helpers.js";

describe("boulderStateHome", () => {
	it("prefers BOULDER_STATE_HOME, then XDG_STATE_HOME/boulder, then ~/.local/state/boulder", () => {
		const own = path.join(path.sep, "own");
		const xdg = path.join(path.sep, "xdg");
		expect(boulderStateHome({ env: { BOULDER_STATE_HOME: own, XDG_STATE_HOME: xdg } })).toBe(own);
		expect(boulderStateHome({ env: { XDG_STATE_HOME: xdg } })).toBe(path.join(xdg, "boulder"));
		expect(boulderStateHome({ env: {} })).toBe(path.join(os.homedir(), ".local", "state", "boulder"));
	});

	it("ignores relative values, as the XDG spec asks, and lets an explicit option win", () => {
		expect(boulderStateHome({ env: { XDG_STATE_HOME: "relative" } })).toBe(
			path.join(os.homedir(), ".local", "state", "boulder"),
		);
		expect(boulderStateHome({ stateHome: "/explicit", env: { BOULDER_STATE_HOME: "/own" } })).toBe(
			path.resolve("/explicit"),
		);
	});
});

describe("recordWorktree and listWorktrees", () => {
	it("records first and last seen, lists the most recent first, with owner-only modes", async () => {
		const home = path.join(await tempDir(), "state", "boulder");
		const clock = fixedClock();
		const options = { env: { BOULDER_STATE_HOME: home }, clock };
		await recordWorktree("/repos/one", options);
		clock.set(FIXED_NOW + 1_000);
		await recordWorktree("/repos/two", options);
		clock.set(FIXED_NOW + 2_000);
		await recordWorktree("/repos/one/", options);

		expect(await listWorktrees(options)).toEqual([
			{ root: path.resolve("/repos/one"), firstSeen: FIXED_NOW, lastSeen: FIXED_NOW + 2_000 },
			{ root: path.resolve("/repos/two"), firstSeen: FIXED_NOW + 1_000, lastSeen: FIXED_NOW + 1_000 },
		]);
		expect(await modeOf(worktreeIndexFile(options))).toBe(0o600);
		expect(await modeOf(home)).toBe(0o700);
	});

	it("is empty before anything was recorded", async () => {
		const options = { stateHome: await tempDir() };
		expect(await listWorktrees(options)).toEqual([]);
		expect((await readWorktreeIndex(options)).kind).toBe("missing");
	});

	it("moves a bad index aside and starts it again", async () => {
		const home = await tempDir();
		const options = { stateHome: home, clock: fixedClock() };
		await writeFile(worktreeIndexFile(options), "[1, 2");
		await recordWorktree("/repos/one", options);
		expect((await listWorktrees(options)).map((entry) => entry.root)).toEqual([path.resolve("/repos/one")]);
		expect((await readdir(home)).sort()).toEqual(["worktrees.json", "worktrees.json.corrupt-20261130T101500Z"]);
	});
});
