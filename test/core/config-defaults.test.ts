import { describe, expect, it, vi } from "vitest";

describe("defaultConfig", () => {
	it("is what the schema gives for an empty config", async () => {
		const { Config, defaultConfig } = await import("../../src/core/config.js");
		expect(defaultConfig()).toStrictEqual(Config.parse({}));
	});

	it("does not build the config schema (a hook with no config file never needs it)", async () => {
		vi.resetModules();
		const { Config, defaultConfig } = await import("../../src/core/config.js");
		defaultConfig();
		// zod builds a lazy schema's inner schema on first use and keeps it on the schema's definition.
		expect((Config._zod.def as { _cachedInner?: unknown })._cachedInner).toBeUndefined();
		Config.parse({});
		expect((Config._zod.def as { _cachedInner?: unknown })._cachedInner).toBeDefined();
	});

	it("does not build it for a well-formed config file either (the hand check takes it), only for a bad one", async () => {
		vi.resetModules();
		const { Config, parseConfig } = await import("../../src/core/config.js");
		const built = () => (Config._zod.def as { _cachedInner?: unknown })._cachedInner !== undefined;
		const file = { $schema: "./schema.json", nextItems: 5, budgets: { ceiling: { tokens: null } }, skipAgents: ["x"] };
		const config = parseConfig(file, "boulder.config.json");
		expect(built()).toBe(false);
		expect(config).toStrictEqual(Config.parse(file));
		expect(JSON.stringify(config)).toBe(JSON.stringify(Config.parse(file)));
		expect(() => parseConfig({ nextItems: 11 }, "boulder.config.json")).toThrow(
			/boulder\.config\.json is not a valid boulder config:\n {2}nextItems: 11 — /,
		);
	});
});
