import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/engine/config-loader.js";
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
