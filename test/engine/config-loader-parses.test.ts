import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/core/config.js";
import { loadConfig } from "../../src/engine/config-loader.js";
import { tempWorktree } from "./helpers.js";

const parses = { count: 0 };
const counted: typeof parseConfig = (...args) => {
	parses.count++;
	return parseConfig(...args);
};

const env = (root: string) => ({ HOME: path.join(root, "home"), XDG_CONFIG_HOME: path.join(root, "config") });

describe("loading the config parses each file once (every hook process loads it)", () => {
	it("parses a lone file once, and it is the config", async () => {
		const root = await tempWorktree();
		await writeFile(path.join(root, "boulder.config.json"), '{"nextItems": 2}');
		parses.count = 0;
		expect(loadConfig(root, env(root), counted).config.nextItems).toBe(2);
		expect(parses.count).toBe(1);
		const user = await tempWorktree();
		await mkdir(path.join(user, "config", "boulder"), { recursive: true });
		await writeFile(path.join(user, "config", "boulder", "config.json"), '{"nextItems": 4}');
		parses.count = 0;
		expect(loadConfig(user, env(user), counted).config.nextItems).toBe(4);
		expect(parses.count).toBe(1);
	});

	it("parses the user's and the project's file once each, and their merge once", async () => {
		const root = await tempWorktree();
		await mkdir(path.join(root, "config", "boulder"), { recursive: true });
		await writeFile(
			path.join(root, "config", "boulder", "config.json"),
			'{"nextItems": 4, "budgets": {"ceiling": {"autoTurns": 50}}}',
		);
		await writeFile(
			path.join(root, "boulder.config.json"),
			'{"nextItems": 2, "budgets": {"ceiling": {"autoTurns": 500}}}',
		);
		parses.count = 0;
		const { config } = loadConfig(root, env(root), counted);
		expect(parses.count).toBe(3);
		expect(config.nextItems).toBe(2);
		// The user's own file (its one parse, reused) still caps the project's ceiling.
		expect(config.budgets.ceiling.autoTurns).toBe(50);
	});
});
