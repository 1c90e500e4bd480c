/**
 * Versioned JSON state files: read → parse → check `schemaVersion` → run the
 * named migration steps → zod parse. A file that cannot be used (unparseable,
 * empty, wrong shape, from a newer build, not a regular file) is moved aside
 * untouched as `<name>.<reason>-<UTC stamp>` and reported, so the caller can
 * fail closed and `boulder doctor` can say what happened. Nothing is dropped.
 *
 * Moving aside happens only under the file's lock, re-checked there: a
 * lock-free reader must never rename away a good file a writer just put in.
 */
import { lstat, rename } from "node:fs/promises";
import path from "node:path";
import { BoulderError } from "../core/errors.js";
import { z } from "../core/zod.js";
import { syncDir, writeFileAtomic } from "./atomic-write.js";
import { type LockHandle, type LockOptions, withLock } from "./lock.js";
import { closeStateFile, isNotAStateFile, openStateFileSync, readOpenedStateFileSync } from "./state-file.js";
import type { Clock, StateProblem } from "./state-words.js";

/** Why a file was moved aside; part of its new name. */
export const AsideReason = z.lazy(() => z.enum(["corrupt", "invalid", "future", "not-a-file"]));
export type AsideReason = z.infer<typeof AsideReason>;

/** One named step forward; `run` may throw when the old content cannot be carried over. */
export interface Migration {
	name: string;
	from: number;
	to: number;
	run(raw: unknown): unknown;
}

export interface VersionedFileSpec<T> {
	/** For messages: "works file", "scope state". */
	label: string;
	currentVersion: number;
	/** The whole file at the current version. */
	schema: z.ZodMiniType<T>;
	migrations: readonly Migration[];
	/** The version a parsed value is at; null when it cannot tell (the file is invalid). */
	versionOf?: (raw: unknown) => number | null;
	/**
	 * The well-formed current-version file checked by hand (`core/hand-check.ts`),
	 * for the files a hook reads on every event: exactly what `schema` would
	 * return, or undefined to leave the value to `schema`.
	 */
	quick?: (value: unknown) => T | undefined;
}

/** Larger than any real state file by far; anything bigger is not ours. */
const MAX_BYTES = 16 * 1024 * 1024;

export type Inspection<T> =
	| { kind: "ok"; value: T; version: number }
	| { kind: "missing" }
	/** Known bad: to be moved aside. */
	| { kind: "bad"; reason: AsideReason; detail: string }
	/** Could not be read at all (permissions, I/O): not known bad, so never moved. */
	| { kind: "inaccessible"; detail: string; cause: unknown };

export type VersionedRead<T> =
	| { kind: "ok"; value: T; version: number }
	| { kind: "missing" }
	| { kind: "unreadable"; problem: StateProblem };

export interface ReadVersionedOptions {
	clock: Clock;
	lock?: LockOptions;
	/** The caller already holds the file's lock (inside an update). */
	held?: LockHandle;
}

/** A value without `schemaVersion` is invalid unless the spec says otherwise. */
export function schemaVersionOf(raw: unknown): number | null {
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
	const version = (raw as { schemaVersion?: unknown }).schemaVersion;
	return typeof version === "number" && Number.isInteger(version) && version >= 1 ? version : null;
}

/** Reads and judges a file without changing anything on disk. */
export async function inspectVersionedFile<T>(file: string, spec: VersionedFileSpec<T>): Promise<Inspection<T>> {
	let text: string;
	try {
		const bytes = await readRegularFile(file);
		if (bytes === null) return { kind: "missing" };
		if (bytes === "not-a-file") return { kind: "bad", reason: "not-a-file", detail: "not a regular file" };
		if (bytes === "too-large") return { kind: "bad", reason: "corrupt", detail: `larger than ${MAX_BYTES} bytes` };
		text = bytes.toString("utf8").replace(/^\uFEFF/, "");
	} catch (error) {
		return { kind: "inaccessible", detail: messageOf(error), cause: error };
	}
	if (text.trim() === "") return { kind: "bad", reason: "corrupt", detail: "empty file" };
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (error) {
		return { kind: "bad", reason: "corrupt", detail: `not JSON: ${messageOf(error)}` };
	}
	const version = (spec.versionOf ?? schemaVersionOf)(raw);
	if (version === null) return { kind: "bad", reason: "invalid", detail: "no usable schemaVersion" };
	if (version > spec.currentVersion) {
		return {
			kind: "bad",
			reason: "future",
			detail: `schemaVersion ${version} is newer than this boulder knows (${spec.currentVersion})`,
		};
	}
	let current = raw;
	for (let at = version; at < spec.currentVersion; ) {
		const step = spec.migrations.find((migration) => migration.from === at);
		if (!step || step.to <= at) {
			return { kind: "bad", reason: "invalid", detail: `no migration from schemaVersion ${at}` };
		}
		try {
			current = step.run(current);
		} catch (error) {
			return { kind: "bad", reason: "invalid", detail: `migration ${step.name} failed: ${brief(messageOf(error))}` };
		}
		at = step.to;
	}
	const quick = spec.quick?.(current);
	if (quick !== undefined) return { kind: "ok", value: quick, version };
	const parsed = spec.schema.safeParse(current);
	if (!parsed.success) {
		return { kind: "bad", reason: "invalid", detail: `wrong shape: ${brief(z.prettifyError(parsed.error))}` };
	}
	return { kind: "ok", value: parsed.data, version };
}

/**
 * Contract: returns `ok` (migrated to the current version, in memory only),
 * `missing`, or `unreadable` with the problem; a bad file has then been moved
 * aside untouched (`problem.movedTo`), or, if it could not be moved, stays
 * where it is and `movedTo` is null. Never throws for a bad file.
 */
export async function readVersionedFile<T>(
	file: string,
	spec: VersionedFileSpec<T>,
	options: ReadVersionedOptions,
): Promise<VersionedRead<T>> {
	const first = await inspectVersionedFile(file, spec);
	if (first.kind === "ok" || first.kind === "missing") return first;
	if (first.kind === "inaccessible") return unreadable(file, null, `cannot be read: ${first.detail}`, options.clock);
	if (options.held) return settleBad(file, first, options.clock, options.held);
	try {
		return await withLock(
			file,
			async (lock) => {
				const again = await inspectVersionedFile(file, spec);
				if (again.kind === "ok" || again.kind === "missing") return again;
				if (again.kind === "inaccessible") {
					return unreadable(file, null, `cannot be read: ${again.detail}`, options.clock);
				}
				return settleBad(file, again, options.clock, lock);
			},
			options.lock,
		);
	} catch (error) {
		return unreadable(
			file,
			null,
			`${first.reason}: ${first.detail}; not moved aside: ${messageOf(error)}`,
			options.clock,
		);
	}
}

async function settleBad(
	file: string,
	bad: { reason: AsideReason; detail: string },
	clock: Clock,
	lock: LockHandle,
): Promise<VersionedRead<never>> {
	const reason = `${bad.reason}: ${bad.detail}`;
	try {
		lock.assertHeld();
		const movedTo = await moveAside(file, bad.reason, clock);
		return unreadable(file, movedTo, reason, clock);
	} catch (error) {
		return unreadable(file, null, `${reason}; not moved aside: ${messageOf(error)}`, clock);
	}
}

/**
 * Writes the whole file at the current version, atomically.
 *
 * Contract: the value is checked against the schema first; an invalid value
 * is a bug in the caller and is never written.
 */
export async function writeVersionedFile<T>(file: string, spec: VersionedFileSpec<T>, value: T): Promise<void> {
	const quick = spec.quick?.(value);
	const parsed = quick !== undefined ? { success: true as const, data: quick } : spec.schema.safeParse(value);
	if (!parsed.success) {
		throw new BoulderError(
			"internal",
			`Refusing to write an invalid ${spec.label} to ${file}: ${brief(z.prettifyError(parsed.error))}`,
		);
	}
	await writeFileAtomic(file, `${JSON.stringify(parsed.data, null, 2)}\n`);
}

/** `20261130T101500Z`: sortable, and legal in file names everywhere. */
export function utcStamp(at: number): string {
	return new Date(at)
		.toISOString()
		.replace(/\.\d{3}Z$/, "Z")
		.replace(/[-:]/g, "");
}

export function asideName(name: string, reason: string, at: number, counter: number): string {
	const base = `${name}.${reason}-${utcStamp(at)}`;
	return counter <= 1 ? base : `${base}-${counter}`;
}

export interface AsideFile {
	/** The name the file had. */
	original: string;
	reason: AsideReason;
	at: number;
}

const ASIDE_PATTERN =
	/^(.+)\.(corrupt|invalid|future|not-a-file)-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z(?:-\d+)?$/;

/** Recognises a name made by `asideName` for one of the aside reasons. */
export function parseAsideName(name: string): AsideFile | null {
	const match = ASIDE_PATTERN.exec(name);
	if (!match) return null;
	const [, original, reason, year, month, day, hour, minute, second] = match;
	const at = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
	return { original: original as string, reason: AsideReason.parse(reason), at };
}

/**
 * Renames `file` (a file, folder or link: untouched) to a free aside name
 * next to it and returns the new path.
 *
 * Contract: call under the file's lock; the free-name check is only race-free
 * among lock holders.
 */
export async function moveAside(file: string, reason: string, clock: Clock): Promise<string> {
	const dir = path.dirname(file);
	const name = path.basename(file);
	const at = clock.now();
	for (let counter = 1; counter < 1000; counter++) {
		const target = path.join(dir, asideName(name, reason, at, counter));
		if (await exists(target)) continue;
		await rename(file, target);
		await syncDir(dir);
		return target;
	}
	throw new BoulderError("internal", `No free name to move ${file} aside`);
}

/** Copies bytes to a sibling name without touching the original, e.g. before a migration rewrites it. */
export async function keepCopy(file: string, label: string, clock: Clock): Promise<string | null> {
	const bytes = await readRegularFile(file);
	if (bytes === null || typeof bytes === "string") return null;
	const dir = path.dirname(file);
	const name = path.basename(file);
	const at = clock.now();
	for (let counter = 1; counter < 1000; counter++) {
		const target = path.join(dir, asideName(name, label, at, counter));
		if (await exists(target)) continue;
		await writeFileAtomic(target, bytes);
		return target;
	}
	throw new BoulderError("internal", `No free name to keep a copy of ${file}`);
}

function unreadable(file: string, movedTo: string | null, reason: string, clock: Clock): VersionedRead<never> {
	return { kind: "unreadable", problem: { file, movedTo, reason, at: clock.now() } };
}

/**
 * The bytes of a regular file; null if it does not exist. Links are not
 * followed: a link in the state folder is not ours and could point anywhere.
 *
 * Synchronous inside: a state file is small and regular (anything else is
 * refused before it is read), and a view that reads a thousand of them pays a
 * thread-pool trip per call otherwise, four per file.
 */
async function readRegularFile(file: string): Promise<Buffer | null | "not-a-file" | "too-large"> {
	let opened: ReturnType<typeof openStateFileSync>;
	try {
		opened = openStateFileSync(file);
	} catch (error) {
		if (isNotAStateFile(error)) return "not-a-file";
		throw error;
	}
	if (opened === null) return null;
	try {
		if (opened.stats.size > MAX_BYTES) return "too-large";
		return readOpenedStateFileSync(opened.fd);
	} finally {
		closeStateFile(opened.fd);
	}
}

async function exists(file: string): Promise<boolean> {
	try {
		await lstat(file);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
		throw error;
	}
}

function brief(text: string): string {
	const oneLine = text.replace(/\s+/g, " ").trim();
	return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
