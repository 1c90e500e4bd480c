/**
 * `z.lazy` (`core/zod-api.ts`): zod's lazy schema is built on first use, not
 * when a module declares it, and the stand-in then behaves as zod's own.
 */
import { describe, expect, it, vi } from "vitest";

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock("zod/mini", async (original) => {
	const zod = await original<typeof import("zod/mini")>();
	return {
		...zod,
		lazy: (...args: Parameters<typeof zod.lazy>) => {
			built.count++;
			return zod.lazy(...args);
		},
	};
});

const { z } = await import("../../src/core/zod.js");

describe("z.lazy", () => {
	it("builds zod's lazy schema on the first use only", () => {
		const before = built.count;
		const getter = vi.fn(() => z.object({ n: z.number() }));
		const schema = z.lazy(getter);
		expect(built.count, "declaring a schema builds nothing").toBe(before);
		expect(getter).not.toHaveBeenCalled();
		expect(schema.parse({ n: 1 })).toEqual({ n: 1 });
		expect(built.count).toBe(before + 1);
		expect(schema.safeParse({ n: "x" }).success).toBe(false);
		expect(built.count, "built once").toBe(before + 1);
	});

	it("behaves as zod's own: wrapped, checked, described, exported as JSON Schema", () => {
		const inner = z.lazy(() => z.string().check(z.minLength(2)));
		const outer = z.lazy(() => z.object({ name: inner, tags: z.array(inner) }));
		expect(outer.parse({ name: "ab", tags: ["cd"] })).toEqual({ name: "ab", tags: ["cd"] });
		const failed = outer.safeParse({ name: "a", tags: [] });
		expect(failed.success).toBe(false);
		expect(z.prettifyError(failed.error as z.core.$ZodError)).toContain("name");
		expect(inner instanceof z.ZodMiniLazy).toBe(true);
		expect(z.toJSONSchema(outer)).toMatchObject({
			type: "object",
			properties: { name: { type: "string", minLength: 2 } },
		});
	});
});
