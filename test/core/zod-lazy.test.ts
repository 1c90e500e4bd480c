/**
 * `z.lazy` (`core/zod-api.ts`): zod's lazy schema is built on first use, not
 * when a module declares it, and the stand-in then behaves as zod's own.
 */

import { describe, expect, it, vi } from "vitest";
import { lazy as zodLazy } from "zod/mini";
import { z } from "../../src/core/zod.js";

describe("z.lazy", () => {
	it("builds zod's lazy schema on the first use only", () => {
		const getter = vi.fn(() => z.object({ n: z.number() }));
		const build = vi.fn(zodLazy<ReturnType<typeof getter>>);
		const schema = z.lazy(getter, build);
		expect(build, "declaring a schema builds nothing").not.toHaveBeenCalled();
		expect(getter).not.toHaveBeenCalled();
		expect(schema.parse({ n: 1 })).toEqual({ n: 1 });
		expect(build).toHaveBeenCalledTimes(1);
		expect(schema.safeParse({ n: "x" }).success).toBe(false);
		expect(build, "built once").toHaveBeenCalledTimes(1);
	});

	it("behaves as zod's own: wrapped, checked, described, exported as JSON Schema", () => {
		const inner = z.lazy(() => z.string().check(z.minLength(2)));
		const outer = z.lazy(() => z.object({ name: inner, tags: z.array(inner) }));
		expect(outer.parse({ name: "ab", tags: ["cd"] })).toEqual({ name: "ab", tags: ["cd"] });
		const failed = outer.safeParse({ name: "a", tags: [] });
		expect(failed.success).toBe(false);
		if (!failed.success) expect(z.prettifyError(failed.error)).toContain("name");
		expect(inner instanceof z.ZodMiniLazy).toBe(true);
		expect(z.toJSONSchema(outer)).toMatchObject({
			type: "object",
			properties: { name: { type: "string", minLength: 2 } },
		});
	});
});
