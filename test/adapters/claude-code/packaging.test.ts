/**
 * The plugin files are hand-kept text; these tests keep them in step with the
 * code: the hooks the plugin registers are the installer's, the version is
 * the package's, and every slash command runs the CLI that ships with it.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
	HOOK_BUNDLE,
	hookCommand,
	hooksObject,
	PLUGIN_ROOT,
	parseOurCommand,
	REGISTRATIONS,
	STOP_TIMEOUT_SECONDS,
	shellWord,
	watchdogMs,
} from "../../../src/adapters/claude-code/hook-config.js";
import { HOOK_EVENTS } from "../../../src/adapters/claude-code/hook-input.js";
import { DEFAULT_CONFIG } from "../../../src/core/config.js";

const root = new URL("../../../", import.meta.url);
const readJson = async (file: string) => JSON.parse(await readFile(new URL(file, root), "utf8"));

describe("the plugin", () => {
	it("registers exactly the installer's hooks, run from the plugin's root", async () => {
		const hooks = await readJson("hooks/hooks.json");

		expect(hooks.hooks).toEqual(
			hooksObject({ node: "node", bundle: `${PLUGIN_ROOT}/${HOOK_BUNDLE}`, version: "plugin" }),
		);
		expect(PLUGIN_ROOT).toBe("$" + "{CLAUDE_PLUGIN_ROOT}");
		expect(hooks.hooks.Stop[0].hooks[0].command).toBe(
			`node "${PLUGIN_ROOT}/dist/hook/claude-code.cjs" Stop --boulder-hook=plugin`,
		);
	});

	it("carries the package's name and version", async () => {
		const plugin = await readJson(".claude-plugin/plugin.json");
		const manifest = await readJson("package.json");

		expect(plugin).toMatchObject({ name: "boulder", version: manifest.version, description: expect.any(String) });
	});

	it("has the five slash commands, each running the CLI that ships with the plugin", async () => {
		for (const [name, command] of [
			["stop", "stop"],
			["go", "go"],
			["status", "status"],
			["start", "start $ARGUMENTS"],
			["why", 'why --session "$CLAUDE_CODE_SESSION_ID"'],
		]) {
			const text = await readFile(new URL(`commands/${name}.md`, root), "utf8");
			expect(text).toMatch(/^---\ndescription: .+\n/);
			expect(text).toContain("allowed-tools: Bash(node:*)");
			expect(text).toContain(`!\`node "\${CLAUDE_PLUGIN_ROOT}/bin/boulder.js" ${command}`);
		}
	});
});

describe("hook commands", () => {
	it("read back what they were written as, whatever the paths hold", () => {
		for (const bundle of [
			"/opt/boulder/dist/hook/claude-code.cjs",
			"/Users/Jo Doe/it's here/claude-code.js",
			"/a/$HOME/`x`",
		]) {
			const program = { node: "/usr/bin/node", bundle, version: "1.0.0-beta.2" };
			for (const { event } of REGISTRATIONS) {
				expect(parseOurCommand(hookCommand(program, event))).toEqual({
					node: "/usr/bin/node",
					bundle,
					event,
					version: "1.0.0-beta.2",
				});
			}
		}
	});

	it("are never read as someone else's command, nor someone else's as ours", () => {
		expect(parseOurCommand("~/bin/notify.sh stop")).toBeNull();
		expect(parseOurCommand("boulder hook claude-code Stop")).toBeNull();
		expect(parseOurCommand(42)).toBeNull();
		expect(parseOurCommand("echo --boulder-hook=1")).toBeNull();
	});

	it("quote for the shell only when needed, keeping the plugin root expandable", () => {
		expect(shellWord("/usr/bin/node")).toBe("/usr/bin/node");
		expect(shellWord("/a b/c")).toBe("'/a b/c'");
		expect(shellWord(`${PLUGIN_ROOT}/dist/x.js`)).toBe(`"${PLUGIN_ROOT}/dist/x.js"`);
		expect(shellWord("it's")).toBe(`'it'\\''s'`);
	});

	it("cover only events the hook program understands", () => {
		for (const { event } of REGISTRATIONS) expect(HOOK_EVENTS).toContain(event);
	});

	it("give the Stop hook room for a verify command at its default timeout, and end before the harness kills them", () => {
		expect(STOP_TIMEOUT_SECONDS * 1000).toBeGreaterThan(DEFAULT_CONFIG.verifyTimeoutMs * 2);
		for (const registration of REGISTRATIONS) {
			expect(watchdogMs(registration.event)).toBeLessThan(registration.timeout * 1000);
			expect(watchdogMs(registration.event)).toBeGreaterThan(0);
		}
	});
});
