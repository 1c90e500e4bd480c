import { describe, expect, it } from "vitest";
import { HOOK_RUNNERS, hookTarget } from "../../src/adapters/hook-runners.js";
import { ADAPTERS } from "../../src/adapters/registry.js";

describe("the hook program's choice of harness", () => {
	it("reads a leading harness name and passes the rest on", () => {
		const target = hookTarget(["claude-code", "Stop", "--boulder-hook=1"]);
		expect(target.runner).toBe(HOOK_RUNNERS["claude-code"]);
		expect(target.argv).toEqual(["Stop", "--boulder-hook=1"]);
	});

	it("takes an event alone as Claude Code's, as its installed hooks run it", () => {
		const target = hookTarget(["Stop", "--boulder-hook=portable"]);
		expect(target.runner).toBe(HOOK_RUNNERS["claude-code"]);
		expect(target.argv).toEqual(["Stop", "--boulder-hook=portable"]);
	});

	it("does not take an inherited property name for a harness", () => {
		expect(hookTarget(["constructor", "Stop"]).argv).toEqual(["constructor", "Stop"]);
	});

	it("serves every registered adapter that runs a command per event, and nothing else", () => {
		const commandHooks = ADAPTERS.filter((adapter) => adapter.hook).map((adapter) => adapter.name);
		expect(Object.keys(HOOK_RUNNERS).sort()).toEqual(commandHooks.sort());
	});
});
