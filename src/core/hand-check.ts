/**
 * The pieces of a hand-written check of a well-formed file, for the few
 * files a hook reads on every event: building and running their zod schemas
 * costs a fresh process more than the hook's own work. A check rebuilds the
 * value exactly as its schema's parse would return it (object keys in the
 * schema's order, defaults filled in) or defers: anything it is not sure of
 * (an unknown or `__proto__` key, a key present but undefined, a wrong type)
 * goes to the schema, which then accepts or words the problem as always.
 *
 * Contract: `handCheck(build)(value)` is either exactly what the schema's
 * parse returns for `value`, or undefined; never a value the schema rejects.
 * Each checked file has a property test that holds its check to its schema.
 */

/** Thrown inside a check to leave the value to the schema. */
const DEFER: unique symbol = Symbol("defer to the schema");

/** Leaves the value to the schema. */
export function defer(): never {
	throw DEFER;
}

/** Runs `build` on `value`: its result, or undefined when it deferred. */
export function handCheck<T>(build: (value: unknown) => T): (value: unknown) => T | undefined {
	return (value) => {
		try {
			return build(value);
		} catch (error) {
			if (error === DEFER) return undefined;
			throw error;
		}
	};
}

/** A plain object (as `JSON.parse` makes them) whose own keys are all among `keys`. */
export function fields(value: unknown, keys: readonly string[]): Record<string, unknown> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return defer();
	if (Object.getPrototypeOf(value) !== Object.prototype) return defer();
	for (const key of Object.keys(value)) if (!keys.includes(key)) return defer();
	return value as Record<string, unknown>;
}

export function str(value: unknown): string {
	return typeof value === "string" ? value : defer();
}

/** `z.string().check(z.minLength(1))`. */
export function nonEmpty(value: unknown): string {
	return typeof value === "string" && value.length >= 1 ? value : defer();
}

/** `z.number()`: finite. */
export function num(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) ? value : defer();
}

/** `z.int()`: a safe integer, at least `min` when given (`z.minimum`). */
export function int(value: unknown, min = Number.MIN_SAFE_INTEGER): number {
	return typeof value === "number" && Number.isSafeInteger(value) && value >= min ? value : defer();
}

export function bool(value: unknown): boolean {
	return typeof value === "boolean" ? value : defer();
}

export function oneOf<const T extends string>(value: unknown, options: readonly T[]): T {
	return typeof value === "string" && (options as readonly string[]).includes(value) ? (value as T) : defer();
}

export function exactly<const T extends string | number | boolean>(value: unknown, expected: T): T {
	return value === expected ? expected : defer();
}

export function nullOr<T>(value: unknown, check: (value: unknown) => T): T | null {
	return value === null ? null : check(value);
}

/** `z._default(schema, fallback)`: undefined (absent) gives the fallback. */
export function orDefault<T>(value: unknown, fallback: T, check: (value: unknown) => T): T {
	return value === undefined ? fallback : check(value);
}

/** An optional key, spread into the rebuilt object in its place: absent stays absent; present but undefined defers. */
export function optional<K extends string, T>(
	object: Record<string, unknown>,
	key: K,
	check: (value: unknown) => T,
): { [P in K]?: T } {
	if (!Object.hasOwn(object, key)) return {};
	const value = object[key];
	if (value === undefined) return defer();
	return { [key]: check(value) } as { [P in K]?: T };
}

export function arrayOf<T>(value: unknown, check: (value: unknown) => T): T[] {
	if (!Array.isArray(value)) return defer();
	const out: T[] = [];
	for (const item of value) out.push(check(item));
	return out;
}

/** `z.record(z.string(), schema)` of a plain object, keys in their order. */
export function recordOf<T>(value: unknown, check: (value: unknown) => T): Record<string, T> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return defer();
	if (Object.getPrototypeOf(value) !== Object.prototype) return defer();
	const out: Record<string, T> = {};
	for (const key of Object.keys(value)) {
		if (key === "__proto__") return defer();
		out[key] = check((value as Record<string, unknown>)[key]);
	}
	return out;
}
