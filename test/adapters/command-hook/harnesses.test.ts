import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CommandHookDialect } from "../../../src/adapters/command-hook/dialect.js";
import { watchdogMs, wordOf } from "../../../src/adapters/command-hook/registrations.js";
import { ADAPTERS } from "../../../src/adapters/registry.js";

const COMMAND_HOOKS = ADAPTERS.filter((adapter) => adapter.hook !== undefined);

async function dialectOf(name: string): Promise<CommandHookDialect> {
	return ((await import(`../../../src/adapters/${name}/dialect.ts`)) as { dialect: CommandHookDialect }).dialect;
}

describe("the command-hook family's one list", () => {
	it("gives every registered adapter that runs a command per event a dialect of its own name, which the build bundles", async () => {
		expect(COMMAND_HOOKS.map((adapter) => adapter.name).sort()).toEqual(
			["claude-code", "codex", "copilot", "droid", "gemini", "qwen"].sort(),
		);
		for (const adapter of COMMAND_HOOKS) {
			expect(existsSync(new URL(`../../../src/adapters/${adapter.name}/dialect.ts`, import.meta.url))).toBe(true);
			const dialect = await dialectOf(adapter.name);
			expect(dialect.harness).toBe(adapter.name);
			// `boulder hook <harness> <event>` offers the dialect's events and its own words.
			expect([...(adapter.hook?.events ?? [])].sort()).toEqual(
				[...dialect.events, ...Object.keys(dialect.words ?? {})].sort(),
			);
		}
	});

	it("registers only events each dialect answers", async () => {
		for (const adapter of COMMAND_HOOKS) {
			const dialect = await dialectOf(adapter.name);
			for (const { event } of dialect.registrations) expect(dialect.events).toContain(event);
			expect(dialect.events).toContain(dialect.stopEvent ?? "Stop");
		}
	});
});

describe("the watchdog, derived from the registrations", () => {
	it("ends every registered hook of every harness before the harness's own timeout kills it", async () => {
		for (const adapter of COMMAND_HOOKS) {
			const { registrations } = await dialectOf(adapter.name);
			for (const registration of registrations) {
				const ms = watchdogMs(registrations, wordOf(registration));
				expect(ms).toBeLessThan(registration.timeout * 1000);
				expect(ms).toBeGreaterThan(registration.timeout * 500);
			}
		}
	});

	it("follows the timeout a registration gives, not the event's name", () => {
		const registrations = [
			{ event: "Stop", timeout: 900 },
			{ event: "Stop", word: "Watchdog", timeout: 14_400 },
			{ event: "Interrupt", timeout: 3 },
		];
		expect(watchdogMs(registrations, "Stop")).toBe(890_000);
		expect(watchdogMs(registrations, "Watchdog")).toBe(14_390_000);
		expect(watchdogMs(registrations, "Interrupt")).toBe(2_700);
		expect(watchdogMs(registrations, "SessionStart")).toBe(54_000);
	});
});
