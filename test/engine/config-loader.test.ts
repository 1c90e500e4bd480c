import { mkdir, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configSources, loadConfig, userConfigPath } from "../../src/engine/config-loader.js";
import { makeFifo } from "../support/fifo.js";
import { tempWorktree } from "./helpers.js";

const env = (root: string) => ({ HOME: path.join(root, "home"), XDG_CONFIG_HOME: path.join(root, "config") });

describe("reading config files", () => {
	it("refuses a FIFO, a device or a folder as the config at once, naming it, instead of hanging", async () => {
		const root = await tempWorktree();
		const file = path.join(root, "boulder.config.json");
		makeFifo(file);
		expect(() => loadConfig(root, env(root))).toThrow(`cannot read ${file}: it is not a regular file`);
		const other = await tempWorktree();
		await symlink("/dev/zero", path.join(other, "boulder.config.json"));
		expect(() => loadConfig(other, env(other))).toThrow("it is not a regular file");
		const third = await tempWorktree();
		await mkdir(path.join(third, "boulder.config.json"));
		expect(() => loadConfig(third, env(third))).toThrow("it is not a regular file");
	});

	it("refuses a config larger than any config, and reads a normal one", async () => {
		const root = await tempWorktree();
		const file = path.join(root, "boulder.config.json");
		await writeFile(file, `{"nextItems": 2${" ".repeat(2 * 1024 * 1024)}}`);
		expect(() => loadConfig(root, env(root))).toThrow("larger than");
		await writeFile(file, '{"nextItems": 2}');
		expect(loadConfig(root, env(root)).config.nextItems).toBe(2);
	});
});

describe("the user's config file", () => {
	it("is never found relative to the working folder: an empty or relative HOME gives way to the account's home", () => {
		// A checkout's `.config/boulder/config.json` taken for the user's would lift the ceilings a project may not.
		const account = path.join(os.userInfo().homedir, ".config", "boulder", "config.json");
		const home = path.join(path.sep, "home", "someone");
		expect(userConfigPath({ HOME: "" })).toBe(account);
		expect(userConfigPath({ HOME: "." })).toBe(account);
		expect(userConfigPath({ HOME: "", XDG_CONFIG_HOME: "config" })).toBe(account);
		expect(userConfigPath({ HOME: home, XDG_CONFIG_HOME: ".config" })).toBe(
			path.join(home, ".config", "boulder", "config.json"),
		);
	});
});

describe("a project's config and the user's ceilings", () => {
	async function layered(user: unknown, project: unknown) {
		const root = await tempWorktree();
		const folder = path.join(root, "config", "boulder");
		await mkdir(folder, { recursive: true });
		if (user !== undefined) await writeFile(path.join(folder, "config.json"), JSON.stringify(user));
		await writeFile(path.join(root, "boulder.config.json"), JSON.stringify(project));
		return loadConfig(root, env(root)).config.budgets.ceiling;
	}

	it("cannot lift the user's ceiling with null", async () => {
		const ceiling = await layered(
			{ budgets: { ceiling: { tokens: 5_000_000 } } },
			{ budgets: { ceiling: { tokens: null } } },
		);
		expect(ceiling.tokens).toBe(5_000_000);
	});

	it("cannot raise the user's ceiling, nor the default one when the user set none", async () => {
		const raised = await layered(
			{ budgets: { ceiling: { autoTurns: 50 } } },
			{ budgets: { ceiling: { autoTurns: 400 } } },
		);
		expect(raised.autoTurns).toBe(50);
		const unset = await layered(undefined, {
			budgets: { ceiling: { tokens: null, wallClockMs: 1_000_000_000, autoTurns: null } },
		});
		expect(unset).toEqual({ autoTurns: 400, tokens: 100_000_000, wallClockMs: 12 * 60 * 60 * 1000 });
	});

	it("may tighten the user's ceiling", async () => {
		const ceiling = await layered(
			{ budgets: { ceiling: { tokens: null } } },
			{ budgets: { ceiling: { tokens: 1000 } } },
		);
		expect(ceiling.tokens).toBe(1000);
	});
});

describe("where a capped ceiling comes from", () => {
	it("names the user's file (or the default) when the project's looser value lost", async () => {
		const root = await tempWorktree();
		const folder = path.join(root, "config", "boulder");
		await mkdir(folder, { recursive: true });
		const userFile = path.join(folder, "config.json");
		await writeFile(userFile, JSON.stringify({ budgets: { ceiling: { tokens: 5_000_000 } } }));
		await writeFile(
			path.join(root, "boulder.config.json"),
			JSON.stringify({ budgets: { ceiling: { tokens: null, autoTurns: null } } }),
		);

		const sources = configSources(loadConfig(root, env(root)));

		expect(sources["budgets.ceiling.tokens"]).toBe(userFile);
		expect(sources["budgets.ceiling.autoTurns"]).toBe("default");
	});
});
