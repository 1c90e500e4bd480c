/**
 * The per-user index of worktrees: where it lives, first/last seen times,
 * modes, a bad index moved aside and rebuilt, and the stamp that says a
 * worktree was recorded recently without reading the index.
 */

import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
	boulderStateHome,
	listWorktrees,
	readWorktreeIndex,
	recordWorktree,
	refreshWorktree,
	worktreeIndexFile,
	worktreeStampFile,
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

	it("never stands on a relative folder: an empty or relative HOME gives way to the account's home", () => {
		// Else the trust record would be read from whatever folder the hook runs in, where a checkout could ship one.
		const account = path.join(os.userInfo().homedir, ".local", "state", "boulder");
		for (const HOME of ["", "relative", "./home"]) {
			expect(boulderStateHome({ env: { HOME } })).toBe(account);
			expect(boulderStateHome({ env: { HOME, XDG_STATE_HOME: "state", BOULDER_STATE_HOME: "own" } })).toBe(account);
		}
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

describe("refreshWorktree", () => {
	const REFRESH = 10 * 60 * 1000;

	async function setUp() {
		const home = await tempDir();
		const clock = fixedClock();
		return { home, clock, options: { stateHome: home, clock } };
	}

	it("records a worktree and stamps it with the recording's time", async () => {
		const { options } = await setUp();
		expect(await refreshWorktree("/repos/one", REFRESH, options)).toBe("recorded");
		expect(await listWorktrees(options)).toEqual([
			{ root: path.resolve("/repos/one"), firstSeen: FIXED_NOW, lastSeen: FIXED_NOW },
		]);
		const stamp = worktreeStampFile("/repos/one", options);
		expect((await stat(stamp)).mtimeMs).toBe(FIXED_NOW);
		expect(await modeOf(stamp)).toBe(0o600);
		expect(worktreeStampFile("/repos/one/", options)).toBe(stamp);
		expect(worktreeStampFile("/repos/two", options)).not.toBe(stamp);
	});

	it("neither reads nor writes the index while the stamp is fresh", async () => {
		const { clock, options } = await setUp();
		await refreshWorktree("/repos/one", REFRESH, options);
		// A bad index would be moved aside by any read of it: left as it is, it was not read.
		await writeFile(worktreeIndexFile(options), "[1, 2");
		clock.set(FIXED_NOW + REFRESH - 1);
		expect(await refreshWorktree("/repos/one", REFRESH, options)).toBe("recent");
		expect(await readFile(worktreeIndexFile(options), "utf8")).toBe("[1, 2");
	});

	it("records again once the stamp is as old as the refresh interval", async () => {
		const { clock, options } = await setUp();
		await refreshWorktree("/repos/one", REFRESH, options);
		clock.set(FIXED_NOW + REFRESH);
		expect(await refreshWorktree("/repos/one", REFRESH, options)).toBe("recorded");
		expect(await listWorktrees(options)).toEqual([
			{ root: path.resolve("/repos/one"), firstSeen: FIXED_NOW, lastSeen: FIXED_NOW + REFRESH },
		]);
		expect((await stat(worktreeStampFile("/repos/one", options))).mtimeMs).toBe(FIXED_NOW + REFRESH);
	});

	it("gets a worktree back into a removed index within the refresh interval", async () => {
		const { clock, options } = await setUp();
		await refreshWorktree("/repos/one", REFRESH, options);
		await rm(worktreeIndexFile(options));
		clock.set(FIXED_NOW + REFRESH);
		await refreshWorktree("/repos/one", REFRESH, options);
		expect((await listWorktrees(options)).map((entry) => entry.root)).toEqual([path.resolve("/repos/one")]);
	});

	it("takes a stamp dated after now (a clock set back) for an old one, beyond a file system's rounding", async () => {
		const { clock, options } = await setUp();
		await refreshWorktree("/repos/one", REFRESH, options);
		clock.set(FIXED_NOW - 1_000);
		expect(await refreshWorktree("/repos/one", REFRESH, options)).toBe("recent");
		clock.set(FIXED_NOW - 60_000);
		expect(await refreshWorktree("/repos/one", REFRESH, options)).toBe("recorded");
		expect((await listWorktrees(options))[0]?.lastSeen).toBe(FIXED_NOW - 60_000);
	});

	it("records a worktree whose stamp is no file, and names the stamp it cannot write", async () => {
		const { options } = await setUp();
		const stamp = worktreeStampFile("/repos/one", options);
		await mkdir(stamp, { recursive: true });
		await expect(refreshWorktree("/repos/one", REFRESH, options)).rejects.toThrow(stamp);
		expect((await listWorktrees(options)).map((entry) => entry.root)).toEqual([path.resolve("/repos/one")]);
	});
});
