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
});
