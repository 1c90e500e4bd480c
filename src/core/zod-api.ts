/**
 * zod/mini's API as boulder uses it (`zod.ts` exports it as `z`), with one
 * change: `lazy` defers the schema object itself, not only what it wraps.
 *
 * Every schema module builds its schemas with `z.lazy(() => ...)` at its top
 * level, and a hook process evaluates every module its bundle holds: building
 * even the lazy wrapper runs zod's constructor machinery (a few dozen
 * properties and closures per schema) for schemas the process never uses,
 * since the files it reads on every event go through hand checks first
 * (`hand-check.ts`). Here `lazy` returns a stand-in that builds zod's lazy
 * schema on the first thing anything does with it (a `parse`, a `safeParse`,
 * another schema wrapping it, a JSON Schema export) and from then on passes
 * everything to it, so it behaves as zod's own in every use.
 */
import type { core, ZodMiniLazy } from "zod/mini";
import { lazy as zodLazy } from "zod/mini";

export * from "zod/mini";

/**
 * A schema built on first use (see above); the same type as zod's `lazy`.
 * `build` makes the schema (zod's `lazy`; a test counts the calls).
 */
export function lazy<T extends core.SomeType>(
	getter: () => T,
	build: (getter: () => T) => ZodMiniLazy<T> = zodLazy,
): ZodMiniLazy<T> {
	let built: ZodMiniLazy<T> | undefined;
	const schema = () => {
		built ??= build(getter);
		return built;
	};
	// The stand-in's own object stays empty: every question about properties goes to the built schema.
	return new Proxy({} as ZodMiniLazy<T>, {
		get: (_, key, receiver) => Reflect.get(schema(), key, receiver),
		set: (_, key, value) => Reflect.set(schema(), key, value),
		has: (_, key) => Reflect.has(schema(), key),
		deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
		defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
		ownKeys: () => Reflect.ownKeys(schema()),
		getOwnPropertyDescriptor(_, key) {
			const found = Reflect.getOwnPropertyDescriptor(schema(), key);
			// A proxy may not report a property its (empty) target lacks as non-configurable.
			return found && { ...found, configurable: true };
		},
		getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
	});
}
