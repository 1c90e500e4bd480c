/**
 * Installers keep their backups in boulder's per-user state folder: the state
 * layer keeps them (`state/install-backups.ts`), and installers reach it
 * through the engine's door.
 */
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupFile, backupFolder } from "../../../src/adapters/shared/config-file.js";
import { boulderStateHome } from "../../../src/state/worktree-index.js";

describe("the folder install backups go to", () => {
	it("is boulder's per-user state folder, for every way the environment names it", () => {
		const home = os.homedir();
		for (const env of [
			{ HOME: home },
			{ HOME: home, XDG_STATE_HOME: "/xdg/state" },
			{ HOME: home, XDG_STATE_HOME: "relative/ignored" },
			{ HOME: home, BOULDER_STATE_HOME: "/own", XDG_STATE_HOME: "/xdg/state" },
			{ HOME: home, BOULDER_STATE_HOME: "relative", XDG_STATE_HOME: "/xdg/state" },
		]) {
			expect(backupFolder(env)).toBe(path.join(boulderStateHome({ env }), "install-backups"));
		}
	});

	it("follows the HOME it is given, not the process's", () => {
		expect(backupFolder({ HOME: "/elsewhere" })).toBe("/elsewhere/.local/state/boulder/install-backups");
	});

	it("holds one slot per config file, named after it", () => {
		const env = { BOULDER_STATE_HOME: "/state" };

		expect(path.dirname(backupFile("/p/opencode.json", env))).toBe("/state/install-backups");
		expect(path.basename(backupFile("/p/opencode.json", env))).toMatch(/^opencode\.json-[0-9a-f]{16}$/);
		expect(backupFile("/p/opencode.json", env)).toBe(backupFile("/p/./opencode.json", env));
		expect(backupFile("/p/opencode.json", env)).not.toBe(backupFile("/q/opencode.json", env));
	});
});
