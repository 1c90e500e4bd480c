import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import { describe, expect, it } from "vitest";
import { startInstance } from "../../../src/adapters/opencode/instance.js";
import * as pluginModule from "../../../src/adapters/opencode/plugin.js";
import { shared } from "../../../src/adapters/opencode/shared.js";

function input(directory: string): Pick<PluginInput, "client" | "directory"> {
	return { directory, client: {} as PluginInput["client"] };
}

describe("the plugin module", () => {
	it("exports exactly one function, as OpenCode calls every export as a plugin", () => {
		expect(Object.keys(pluginModule)).toEqual(["BoulderPlugin"]);
		expect(typeof pluginModule.BoulderPlugin).toBe("function");
	});
});

describe("plugin instances", () => {
	it("of one folder share one hub; the last to be disposed closes it, and the next start makes a new one", async () => {
		const directory = await mkdtemp(path.join(os.tmpdir(), "boulder-oc-instance-"));
		const first = await startInstance(input(directory));
		const second = await startInstance(input(directory));
		const hub = shared().hubs.get(directory);
		expect(hub).toBeDefined();
		expect(Object.keys(first).sort()).toEqual(
			[
				"chat.message",
				"command.execute.before",
				"config",
				"dispose",
				"event",
				"experimental.session.compacting",
				"tool.execute.after",
				"tool.execute.before",
			].sort(),
		);

		await (first as Required<Hooks>).dispose();
		expect(shared().hubs.get(directory)).toBe(hub);
		await (second as Required<Hooks>).dispose();
		await (second as Required<Hooks>).dispose();
		const third = await startInstance(input(directory));
		expect(shared().hubs.get(directory)).not.toBe(hub);
		await (third as Required<Hooks>).dispose();
	});
});
