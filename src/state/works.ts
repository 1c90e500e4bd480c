/**
 * The works file: every plan ("work") being rolled in this worktree, which one
 * is active, and the worktree-wide stop switch. The zod schemas are the types.
 *
 * v1 is the legacy one-flat-plan shape (no `schemaVersion`); v2 holds many
 * works. `migrateWorksV1ToV2` is pure so it can be tested against real old
 * files; the file store runs it when it reads a v1 file.
 */
import path from "node:path";
import { PLAN_MODES } from "../core/front-matter.js";
import {
	arrayOf,
	bool,
	defer,
	exactly,
	fields,
	handCheck,
	int,
	nonEmpty,
	nullOr,
	num,
	oneOf,
	optional,
	recordOf,
	str,
} from "../core/hand-check.js";
import { z } from "../core/zod.js";
import { schemaVersionOf, type VersionedFileSpec } from "./versioned-file.js";

export const WORKS_SCHEMA_VERSION = 2;

const time = z.lazy(() => z.number());

export const WorkStatus = z.lazy(() => z.enum(["active", "paused", "completed", "abandoned"]));
export type WorkStatus = z.infer<typeof WorkStatus>;

/** A harness session bound to a work: it started it (`direct`) or joined later (`appended`). */
export const WorkSession = z.lazy(() =>
	z.object({
		harness: z.string(),
		sessionId: z.string(),
		how: z.enum(["direct", "appended"]),
		at: time,
	}),
);
export type WorkSession = z.infer<typeof WorkSession>;

/** The last run of the work's verify commands (the completion gate). */
export const WorkVerification = z.lazy(() =>
	z.object({
		at: time,
		passed: z.boolean(),
		/** The first command that failed, or null when all passed. */
		command: z.nullable(z.string()),
		/** null: timed out or did not run to an exit. */
		exitCode: z.nullable(z.int()),
		/** Trimmed output of the failing command. */
		output: z.string(),
	}),
);
export type WorkVerification = z.infer<typeof WorkVerification>;

export const Work = z.lazy(() =>
	z.object({
		id: z.string().check(z.minLength(1)),
		/** Relative to the worktree root, with `/` separators. */
		planPath: z.string().check(z.minLength(1)),
		name: z.string(),
		status: WorkStatus,
		startedAt: time,
		endedAt: z.nullable(time),
		elapsedMs: z.nullable(z.int().check(z.minimum(0))),
		sessions: z.array(WorkSession),
		/** The agent to resume the work with. */
		agent: z.nullable(z.string()),
		/** The worktree root the work was started in. */
		worktree: z.string(),
		/** Reusable subagent sessions, per plan item key. */
		subagentSessions: z.record(z.string(), z.string()),
		verify: z.array(z.string()),
		verifyTimeoutMs: z.nullable(z.int().check(z.positive())),
		lastVerification: z.nullable(WorkVerification),
		/** `boulder start --orchestrate`; a plan's own `mode:` front matter asks for the same. Absent in older files. */
		mode: z.optional(z.enum(PLAN_MODES)),
		/**
		 * An explicit handover (`boulder start` on this work, `boulder go`, the
		 * dashboard): the next session that goes idle in the worktree and is not
		 * bound yet joins the work (`appended`), and this clears. Absent in older files.
		 */
		handover: z.optional(z.nullable(z.object({ at: time, by: z.string() }))),
	}),
);
export type Work = z.infer<typeof Work>;

/** Consistency the engine relies on: the active id names a work, and each work sits under its own id. */
export const WorksFile = z.lazy(() =>
	z
		.object({
			schemaVersion: z.literal(WORKS_SCHEMA_VERSION),
			activeWorkId: z.nullable(z.string()),
			/** `boulder stop`: no nudges anywhere in this worktree until it is lifted. */
			stopped: z.nullable(z.object({ at: time, by: z.string() })),
			works: z.record(z.string(), Work),
		})
		.check(
			z.superRefine((file, ctx) => {
				if (file.activeWorkId !== null && !Object.hasOwn(file.works, file.activeWorkId)) {
					ctx.addIssue({ code: "custom", path: ["activeWorkId"], message: "names no work in `works`" });
				}
				for (const [key, work] of Object.entries(file.works)) {
					if (work.id !== key)
						ctx.addIssue({ code: "custom", path: ["works", key, "id"], message: "differs from its key" });
				}
			}),
		),
);
export type WorksFile = z.infer<typeof WorksFile>;

const WORK_KEYS = [
	"id",
	"planPath",
	"name",
	"status",
	"startedAt",
	"endedAt",
	"elapsedMs",
	"sessions",
	"agent",
	"worktree",
	"subagentSessions",
	"verify",
	"verifyTimeoutMs",
	"lastVerification",
	"mode",
	"handover",
] as const;

/** `WorksFile`'s well-formed case by hand (`core/hand-check.ts`): the hook reads and writes the works file on every event. */
const quickWorksFile = handCheck((value): WorksFile => {
	const file = fields(value, ["schemaVersion", "activeWorkId", "stopped", "works"]);
	const checked: WorksFile = {
		schemaVersion: exactly(file.schemaVersion, WORKS_SCHEMA_VERSION),
		activeWorkId: nullOr(file.activeWorkId, str),
		stopped: nullOr(file.stopped, byWhom),
		works: recordOf(file.works, quickWork),
	};
	if (checked.activeWorkId !== null && !Object.hasOwn(checked.works, checked.activeWorkId)) return defer();
	for (const [key, work] of Object.entries(checked.works)) if (work.id !== key) return defer();
	return checked;
});

function byWhom(value: unknown): { at: number; by: string } {
	const given = fields(value, ["at", "by"]);
	return { at: num(given.at), by: str(given.by) };
}

function quickWork(value: unknown): Work {
	const work = fields(value, WORK_KEYS);
	return {
		id: nonEmpty(work.id),
		planPath: nonEmpty(work.planPath),
		name: str(work.name),
		status: oneOf(work.status, ["active", "paused", "completed", "abandoned"]),
		startedAt: num(work.startedAt),
		endedAt: nullOr(work.endedAt, num),
		elapsedMs: nullOr(work.elapsedMs, (ms) => int(ms, 0)),
		sessions: arrayOf(work.sessions, (item) => {
			const session = fields(item, ["harness", "sessionId", "how", "at"]);
			return {
				harness: str(session.harness),
				sessionId: str(session.sessionId),
				how: oneOf(session.how, ["direct", "appended"]),
				at: num(session.at),
			};
		}),
		agent: nullOr(work.agent, str),
		worktree: str(work.worktree),
		subagentSessions: recordOf(work.subagentSessions, str),
		verify: arrayOf(work.verify, str),
		verifyTimeoutMs: nullOr(work.verifyTimeoutMs, (ms) => int(ms, 1)),
		lastVerification: nullOr(work.lastVerification, (item) => {
			const run = fields(item, ["at", "passed", "command", "exitCode", "output"]);
			return {
				at: num(run.at),
				passed: bool(run.passed),
				command: nullOr(run.command, str),
				exitCode: nullOr(run.exitCode, (code) => int(code)),
				output: str(run.output),
			};
		}),
		...optional(work, "mode", (mode) => oneOf(mode, PLAN_MODES)),
		...optional(work, "handover", (handover) => nullOr(handover, byWhom)),
	};
}

/** The legacy flat shape: one plan, its sessions, no schema version. */
export const WorksFileV1 = z.lazy(() =>
	z.object({
		activePlan: z.string().check(z.minLength(1)),
		planName: z.optional(z.string()),
		/** ISO 8601. */
		startedAt: z.string(),
		sessionIds: z.array(z.string()),
		agent: z.optional(z.string()),
	}),
);
export type WorksFileV1 = z.infer<typeof WorksFileV1>;

export interface WorksMigrationContext {
	/** The worktree root the file belongs to (absolute). */
	worktree: string;
	/** v1 did not record which harness a session belonged to. */
	harness: string;
}

export function emptyWorksFile(): WorksFile {
	return { schemaVersion: WORKS_SCHEMA_VERSION, activeWorkId: null, stopped: null, works: {} };
}

/**
 * v1 → v2: the one flat plan becomes the single, active work. Pure: the same
 * input and context always give the same output (the id is derived from the
 * plan, not random). Sessions keep their order; the first is taken to be the
 * one that started the work. v1 had no per-session times, so each session is
 * dated at the work's start, the earliest it can have joined.
 *
 * Contract: throws (a plain Error) when the v1 content cannot be carried over
 * faithfully, e.g. an unparseable `startedAt`; the caller keeps the file aside.
 */
export function migrateWorksV1ToV2(v1: WorksFileV1, context: WorksMigrationContext): WorksFile {
	const startedAt = Date.parse(v1.startedAt);
	if (!Number.isFinite(startedAt)) {
		throw new Error(`startedAt is not a date: ${JSON.stringify(v1.startedAt)}`);
	}
	const planPath = relativePlanPath(v1.activePlan, context.worktree);
	const name = v1.planName ?? planBaseName(planPath);
	const id = `${slug(name) || "plan"}-v1`;
	const sessions: WorkSession[] = uniqueInOrder(v1.sessionIds).map((sessionId, index) => ({
		harness: context.harness,
		sessionId,
		how: index === 0 ? "direct" : "appended",
		at: startedAt,
	}));
	const work: Work = {
		id,
		planPath,
		name,
		status: "active",
		startedAt,
		endedAt: null,
		elapsedMs: null,
		sessions,
		agent: v1.agent ?? null,
		worktree: context.worktree,
		subagentSessions: {},
		verify: [],
		verifyTimeoutMs: null,
		lastVerification: null,
	};
	return { schemaVersion: WORKS_SCHEMA_VERSION, activeWorkId: id, stopped: null, works: { [id]: work } };
}

function relativePlanPath(plan: string, worktree: string): string {
	const relative = path.isAbsolute(plan) ? path.relative(worktree, plan) : path.normalize(plan);
	return relative.split(path.sep).join("/");
}

function planBaseName(planPath: string): string {
	const base = planPath.split("/").pop() ?? planPath;
	return base.replace(/\.md$/i, "");
}

function slug(text: string): string {
	return text
		.normalize("NFKD")
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "")
		.slice(0, 48);
}

function uniqueInOrder(values: readonly string[]): string[] {
	return [...new Set(values)];
}

/** The works file as a versioned file: v1 (no `schemaVersion`) migrates forward. */
export function worksFileSpec(context: WorksMigrationContext): VersionedFileSpec<WorksFile> {
	return {
		label: "works file",
		currentVersion: WORKS_SCHEMA_VERSION,
		schema: WorksFile,
		quick: quickWorksFile,
		versionOf: (raw) => (isObject(raw) && !("schemaVersion" in raw) ? 1 : schemaVersionOf(raw)),
		migrations: [
			{
				name: "migrateWorksV1ToV2",
				from: 1,
				to: 2,
				run: (raw) => migrateWorksV1ToV2(WorksFileV1.parse(raw), context),
			},
		],
	};
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
