/**
 * The file implementation of `Store` for one worktree. Everything lives under
 * `<worktree>/.boulder/` (created on first write, 0700, with a `.gitignore`
 * of `*`):
 *
 *   works.json                 the works file (v2; v1 migrates on read)
 *   scopes/<scopeKey>.json     one continuation state per scope
 *   scopes/<scopeKey>.tally    its tally, marks kept by appending (`scope-tally.ts`)
 *   decisions.jsonl            the decision log, rotated to decisions.<n>.jsonl
 *   plan-summaries.json        what status showed of each plan (a cache, `plan-summaries.ts`)
 *
 * and, under the user's state folder, the last parse of each plan (a cache,
 * `plan-parse-cache.ts`) and the trust record (`trust.ts`).
 *
 * Reads take no lock; every read-modify-write runs under the file's lock and
 * commits with an atomic write. Bad files are moved aside and logged; what is
 * left lying in the folder is `inspect.ts`'s to find.
 *
 * A folder that is no project keeps the same layout under the user's state
 * folder instead (`stateDir`, see `folder-state.ts`), so a hook that fires
 * there leaves no trace in the folder. A store opened with `keepsState:
 * false` keeps nothing: it reads as empty, drops every write and never
 * creates the folder.
 */
import { lstatSync, type Stats, statSync } from "node:fs";
import { lstat, mkdir } from "node:fs/promises";
import path from "node:path";
import type { DecisionRecord } from "../core/decision-record.js";
import { BoulderError } from "../core/errors.js";
import { exactly, fields, handCheck } from "../core/hand-check.js";
import type { ParsedPlan } from "../core/plan-parser.js";
import { ContinuationState, handContinuationState } from "../core/turns.js";
import { z } from "../core/zod.js";
import { DIR_MODE, ensureDir, writeFileAtomic } from "./atomic-write.js";
import {
	appendDecisionLine,
	DEFAULT_DECISION_LOG,
	type DecisionLogOptions,
	type DecisionLogRead,
	type ReadDecisionsOptions,
	readDecisionLines,
} from "./decision-log.js";
import { type LogPosition, readDecisionsSince, readNewestDecisions, type TailRead } from "./decision-tail.js";
import { listScopeFiles, scanStateProblems } from "./inspect.js";
import { type LockOptions, resolveLockOptions, withLock } from "./lock.js";
import { planParseFile, readPlanParse, writePlanParse } from "./plan-parse-cache.js";
import { PLAN_SUMMARIES_FILE, type PlanSummaries, readPlanSummaries, writePlanSummaries } from "./plan-summaries.js";
import { scopeFilePath } from "./scope-path.js";
import { addToTally, type Tallied, tallyFileOf } from "./scope-tally.js";
import { isNotAStateFile } from "./state-file.js";
import {
	type Clock,
	type Read,
	type ReadDecisionsQuery,
	type StateProblem,
	type Store,
	systemClock,
	type Update,
} from "./store.js";
import { emptyTrust, grantTrust, readTrust, type TrustGrant, type TrustView, trustRoot } from "./trust.js";
import { type ClaimResult, claimVerify, noteVerifyGroup, releaseVerify, verifyClaimsFileOf } from "./verify-claims.js";
import {
	inspectVersionedFile,
	keepCopy,
	readVersionedFile,
	type VersionedFileSpec,
	type VersionedRead,
	writeVersionedFile,
} from "./versioned-file.js";
import { WORKS_SCHEMA_VERSION, type WorksFile, worksFileSpec } from "./works.js";
import { boulderStateHome } from "./worktree-index.js";

export const STATE_DIR_NAME = ".boulder";
export const WORKS_FILE_NAME = "works.json";
export const SCOPE_SCHEMA_VERSION = 1;

export const ScopeFile = z.lazy(() =>
	z.object({
		schemaVersion: z.literal(SCOPE_SCHEMA_VERSION),
		state: ContinuationState,
	}),
);
export type ScopeFile = z.infer<typeof ScopeFile>;

export const scopeFileSpec: VersionedFileSpec<ScopeFile> = {
	label: "scope state",
	currentVersion: SCOPE_SCHEMA_VERSION,
	schema: ScopeFile,
	migrations: [],
	/** By hand (`core/hand-check.ts`): the hook reads and writes its scope state on every event. */
	quick: handCheck((value): ScopeFile => {
		const file = fields(value, ["schemaVersion", "state"]);
		return {
			schemaVersion: exactly(file.schemaVersion, SCOPE_SCHEMA_VERSION),
			state: handContinuationState(file.state),
		};
	}),
};

export interface FileStoreOptions {
	/** Dates aside names and problems. */
	clock?: Clock;
	lock?: LockOptions;
	decisions?: Omit<DecisionLogOptions, "lock">;
	/** The harness assumed for sessions in a legacy v1 works file (v1 did not say). */
	legacyHarness?: string;
	/**
	 * false outside any project: nothing is read, written or created, whatever
	 * lies in the folder. Defaults to true.
	 */
	keepsState?: boolean;
	/**
	 * Where the state lives instead of `<worktree>/.boulder`: a folder that is no
	 * project keeps it under the user's state folder (`folder-state.ts`). Its
	 * parents are created as needed.
	 */
	stateDir?: string;
	/**
	 * The user's state folder, where the trust record of this worktree lives
	 * (`trust.ts`); defaults to `boulderStateHome()` of `process.env`.
	 */
	stateHome?: string;
	/**
	 * Called after each decision line is appended (the fleet's shipper start,
	 * `engine/fleet-kick.ts`). Contract: it must not throw or wait.
	 */
	onDecision?: () => void;
}

export class FileStore implements Store {
	readonly worktree: string;
	/** `<worktree>/.boulder`, or the `stateDir` it was given. */
	readonly dir: string;
	/** true: the state lives outside the worktree (`stateDir`), under the user's state folder. */
	readonly external: boolean;
	readonly paths: {
		works: string;
		scopes: string;
		decisions: string;
		gitignore: string;
		planSummaries: string;
		verifyClaims: string;
	};
	/** false: the folder is no project; the store reads as empty and drops writes. */
	readonly keepsState: boolean;
	private readonly clock: Clock;
	private readonly lock: LockOptions;
	private readonly decisions: DecisionLogOptions;
	private readonly worksSpec: VersionedFileSpec<WorksFile>;
	private readonly onDecision: (() => void) | undefined;
	/** The user's state folder: the trust record is read and written there. */
	readonly stateHome: string;

	constructor(worktree: string, options: FileStoreOptions = {}) {
		this.worktree = path.resolve(worktree);
		this.dir = options.stateDir ? path.resolve(options.stateDir) : path.join(this.worktree, STATE_DIR_NAME);
		this.external = options.stateDir !== undefined;
		this.stateHome = options.stateHome ?? boulderStateHome();
		const { stateHome, worktree: root } = this;
		let verifyClaims: string | undefined;
		this.paths = {
			works: path.join(this.dir, WORKS_FILE_NAME),
			scopes: path.join(this.dir, "scopes"),
			decisions: path.join(this.dir, "decisions.jsonl"),
			gitignore: path.join(this.dir, ".gitignore"),
			planSummaries: path.join(this.dir, PLAN_SUMMARIES_FILE),
			// Found on first use: it takes the worktree's real path, and few events verify.
			get verifyClaims() {
				verifyClaims ??= verifyClaimsFileOf(stateHome, root);
				return verifyClaims;
			},
		};
		this.keepsState = options.keepsState ?? true;
		this.clock = options.clock ?? systemClock;
		this.lock = options.lock ?? {};
		this.decisions = { ...DEFAULT_DECISION_LOG, ...options.decisions, lock: this.lock };
		this.worksSpec = worksFileSpec({ worktree: this.worktree, harness: options.legacyHarness ?? "unknown" });
		this.onDecision = options.onDecision;
	}

	/** Contract: throws `BoulderError("usage")` for a key that is not one safe path segment. */
	scopeFile(scopeKey: string): string {
		return scopeFilePath(this.paths.scopes, scopeKey);
	}

	/**
	 * Contract: changes nothing on disk. A bad scope file is only moved aside by
	 * `updateScope`, whose caller then writes the fail-closed state in its
	 * place; a plain read (`boulder status`) moving it would let the next update
	 * find the scope missing and start afresh, failing open.
	 */
	async readScope(scopeKey: string): Promise<Read<ContinuationState>> {
		const file = this.scopeFile(scopeKey);
		if (!this.keepsState || !(await this.layoutExists(true))) return { kind: "missing" };
		const inspected = await inspectVersionedFile(file, scopeFileSpec);
		switch (inspected.kind) {
			case "ok":
				return { kind: "ok", value: inspected.value.state };
			case "missing":
				return inspected;
			case "bad":
				return {
					kind: "unreadable",
					problem: { file, movedTo: null, reason: `${inspected.reason}: ${inspected.detail}`, at: this.clock.now() },
				};
			case "inaccessible":
				return {
					kind: "unreadable",
					problem: { file, movedTo: null, reason: `cannot be read: ${inspected.detail}`, at: this.clock.now() },
				};
		}
	}

	async updateScope<R>(
		scopeKey: string,
		fn: (current: Read<ContinuationState>) => Update<R, ContinuationState>,
	): Promise<R> {
		const file = this.scopeFile(scopeKey);
		if (!this.keepsState) return fn({ kind: "missing" }).result;
		await this.ensureLayout();
		return withLock(
			file,
			async (lock) => {
				const read = await readVersionedFile(file, scopeFileSpec, { clock: this.clock, held: lock });
				const current = this.unwrapScope(await this.noted(read, scopeKey));
				refuseIfStillInPlace(current);
				const { result, next } = fn(current);
				if (next !== null) {
					lock.assertHeld();
					await writeVersionedFile(file, scopeFileSpec, { schemaVersion: SCOPE_SCHEMA_VERSION, state: next });
				}
				return result;
			},
			this.lock,
		);
	}

	async tally(scopeKey: string, mark: string, window: number): Promise<Tallied> {
		const file = tallyFileOf(this.scopeFile(scopeKey));
		if (!this.keepsState) return { place: 0, marks: [] };
		await this.ensureLayout();
		return addToTally(file, mark, window);
	}

	async readWorks(): Promise<Read<WorksFile>> {
		if (!this.keepsState || !(await this.layoutExists(false))) return { kind: "missing" };
		const read = await readVersionedFile(this.paths.works, this.worksSpec, { clock: this.clock, lock: this.lock });
		return strip(await this.noted(read, null));
	}

	async updateWorks<R>(fn: (current: Read<WorksFile>) => Update<R, WorksFile>): Promise<R> {
		const file = this.paths.works;
		if (!this.keepsState) return fn({ kind: "missing" }).result;
		await this.ensureLayout();
		return withLock(
			file,
			async (lock) => {
				const read = await this.noted(
					await readVersionedFile(file, this.worksSpec, { clock: this.clock, held: lock }),
					null,
				);
				const current = strip(read);
				refuseIfStillInPlace(current);
				const { result, next } = fn(current);
				if (next !== null) {
					if (read.kind === "ok" && read.version < WORKS_SCHEMA_VERSION) {
						await this.keepPreMigrationCopy(file, read.version);
					}
					lock.assertHeld();
					await writeVersionedFile(file, this.worksSpec, next);
				}
				return result;
			},
			this.lock,
		);
	}

	/** Outside any project nothing is trusted, and nothing is there to trust. */
	async readTrust(): Promise<TrustView> {
		if (!this.keepsState) return emptyTrust(trustRoot(this.worktree));
		return (await readTrust(this.stateHome, this.worktree, { clock: this.clock, lock: this.lock })).trust;
	}

	async grantTrust(grant: TrustGrant): Promise<void> {
		if (!this.keepsState) return;
		await grantTrust(this.stateHome, this.worktree, grant, { clock: this.clock, lock: this.lock });
	}

	async claimVerify(workId: string, until: number): Promise<ClaimResult> {
		if (!this.keepsState) return { granted: true };
		await this.ensureLayout();
		return claimVerify(this.paths.verifyClaims, workId, until, { clock: this.clock, lock: this.lock });
	}

	async noteVerifyGroup(workId: string, group: number | null): Promise<void> {
		if (!this.keepsState) return;
		await noteVerifyGroup(this.paths.verifyClaims, workId, group, { clock: this.clock, lock: this.lock });
	}

	async releaseVerify(workId: string): Promise<void> {
		if (!this.keepsState) return;
		await releaseVerify(this.paths.verifyClaims, workId, { clock: this.clock, lock: this.lock });
	}

	async appendDecision(record: DecisionRecord): Promise<void> {
		if (!this.keepsState) return;
		await this.ensureLayout();
		await appendDecisionLine(this.paths.decisions, record, this.decisions);
		this.onDecision?.();
	}

	async readDecisions(options: ReadDecisionsQuery = {}): Promise<DecisionRecord[]> {
		return (await this.readDecisionLog(options)).records;
	}

	/** Like `readDecisions`, with the count of lines that could not be read. */
	async readDecisionLog(options: Omit<ReadDecisionsOptions, "keep"> = {}): Promise<DecisionLogRead> {
		if (!this.keepsState || !(await this.layoutExists(false))) return { records: [], skipped: 0 };
		return readDecisionLines(this.paths.decisions, { ...options, keep: this.decisions.keep });
	}

	async readPlanSummaries(): Promise<PlanSummaries> {
		if (!this.keepsState || !(await this.layoutExists(false))) return {};
		return readPlanSummaries(this.paths.planSummaries);
	}

	/** Never creates the state folder: a worktree without state has no works, so no plans to cache. */
	async writePlanSummaries(plans: PlanSummaries): Promise<void> {
		if (!this.keepsState || !(await this.layoutExists(false))) return;
		await writePlanSummaries(this.paths.planSummaries, plans);
	}

	async readPlanParse(planPath: string, text: string): Promise<ParsedPlan | null> {
		if (!this.keepsState) return null;
		return readPlanParse(planParseFile(this.stateHome, this.worktree, planPath), text, planPath);
	}

	async writePlanParse(planPath: string, text: string, plan: ParsedPlan): Promise<void> {
		if (!this.keepsState) return;
		await writePlanParse(planParseFile(this.stateHome, this.worktree, planPath), text, plan);
	}

	/**
	 * The works file as it is, for a view that only looks (the dashboard):
	 * unlike `readWorks`, a bad file is reported and left where it is.
	 */
	async peekWorks(): Promise<Read<WorksFile>> {
		if (!this.keepsState || !(await this.layoutExists(false))) return { kind: "missing" };
		const inspected = await inspectVersionedFile(this.paths.works, this.worksSpec);
		switch (inspected.kind) {
			case "ok":
				return { kind: "ok", value: inspected.value };
			case "missing":
				return inspected;
			case "bad":
				return this.unreadableInPlace(this.paths.works, `${inspected.reason}: ${inspected.detail}`);
			case "inaccessible":
				return this.unreadableInPlace(this.paths.works, `cannot be read: ${inspected.detail}`);
		}
	}

	/**
	 * A cheap fingerprint of each part of the state folder (inode, size and
	 * modification time; "-" when absent), so a view can tell what changed
	 * without reading it. The scopes folder's own stamp changes whenever a scope
	 * file is written, since every write renames a new file into it.
	 */
	async stamps(): Promise<{ works: string; decisions: string; scopes: string }> {
		const [works, decisions, scopes] = await Promise.all([
			stampOf(this.paths.works),
			stampOf(this.paths.decisions),
			stampOf(this.paths.scopes),
		]);
		return { works, decisions, scopes };
	}

	async scopeKeys(): Promise<Set<string>> {
		if (!this.keepsState || !(await this.layoutExists(true))) return new Set();
		return new Set((await listScopeFiles(this)).map((file) => path.basename(file, ".json")));
	}

	/** Each scope file's key and stamp (aside copies, locks and temp files left out). */
	async scopeStamps(): Promise<Map<string, string>> {
		if (!this.keepsState) return new Map();
		const files = await listScopeFiles(this);
		const stamps = await Promise.all(
			files.map(async (file) => [path.basename(file, ".json"), await stampOf(file)] as const),
		);
		return new Map(stamps);
	}

	/** The newest `limit` decision-log lines, read from the end of the log, and where reading stopped. */
	async newestDecisions(limit: number): Promise<TailRead> {
		return readNewestDecisions(this.paths.decisions, { limit, keep: this.decisions.keep ?? 1 });
	}

	/** The decision-log lines appended since `position`. */
	async decisionsSince(position: LogPosition): Promise<TailRead> {
		return readDecisionsSince(this.paths.decisions, position, { keep: this.decisions.keep ?? 1 });
	}

	/**
	 * Files moved aside, lock folders and temp files left by dead processes
	 * (older than the stale time), and unreadable decision-log lines.
	 */
	async problems(): Promise<StateProblem[]> {
		if (!this.keepsState || !(await this.layoutExists(false))) return [];
		let skippedLines = 0;
		let notAFile: StateProblem | null = null;
		try {
			skippedLines = (await this.readDecisionLog()).skipped;
		} catch (error) {
			if (!isNotAStateFile(error)) throw error;
			notAFile = {
				file: error.file,
				movedTo: null,
				reason: `${error.what}, not a regular file: it is never read or written through; the next hook event moves it aside and starts a fresh log`,
				at: this.clock.now(),
			};
		}
		const found = await scanStateProblems({
			folders: [this.dir, this.paths.scopes],
			staleMs: resolveLockOptions(this.lock).staleMs,
			decisionLog: { file: this.paths.decisions, skippedLines },
			now: this.clock.now(),
		});
		return notAFile ? [...found, notAFile] : found;
	}

	private unreadableInPlace(file: string, reason: string): Read<never> {
		return { kind: "unreadable", problem: { file, movedTo: null, reason, at: this.clock.now() } };
	}

	private unwrapScope(read: VersionedRead<ScopeFile>): Read<ContinuationState> {
		return read.kind === "ok" ? { kind: "ok", value: read.value.state } : read;
	}

	/** A bad file is logged as an event, so `boulder why` and `doctor` can tell what happened. */
	private async noted<T>(read: VersionedRead<T>, scope: string | null): Promise<VersionedRead<T>> {
		if (read.kind !== "unreadable") return read;
		const { problem } = read;
		const where = problem.movedTo ? `moved aside to ${path.basename(problem.movedTo)}` : "left in place";
		const logged = await this.logEvent(scope, "state-unreadable", `${problem.file} ${where}: ${problem.reason}`);
		return logged === null ? read : { ...read, problem: { ...problem, reason: `${problem.reason}; ${logged}` } };
	}

	private async keepPreMigrationCopy(file: string, version: number): Promise<void> {
		const copy = await keepCopy(file, `v${version}`, this.clock);
		if (copy) await this.logEvent(null, "state-migrated", `${file} v${version} kept as ${path.basename(copy)}`);
	}

	/** Returns null when logged, or why it could not be (the caller carries that on). */
	private async logEvent(scope: string | null, reason: string, detail: string): Promise<string | null> {
		try {
			await this.ensureLayout();
			await appendDecisionLine(
				this.paths.decisions,
				{
					v: 1,
					at: this.clock.now(),
					worktree: this.worktree,
					scope,
					harness: null,
					session: null,
					work: null,
					kind: "event",
					reason,
					detail,
				},
				this.decisions,
			);
			return null;
		} catch (error) {
			return `could not log it: ${error instanceof Error ? error.message : String(error)}`;
		}
	}

	/** false if `.boulder/` (and `scopes/`) is absent; throws if it is not a real folder. */
	private async layoutExists(scopes: boolean): Promise<boolean> {
		if (!(await realFolder(this.dir))) return false;
		return scopes ? realFolder(this.paths.scopes) : true;
	}

	/**
	 * Makes `.boulder/` (checked to be a real folder), its `.gitignore` and
	 * `scopes/`, once per store, and looks at `.boulder/` again before every
	 * later write (one lstat): a long-lived host (OpenCode's plugin, an SDK
	 * program) outlives a `.boulder/` removed behind its back, which is then
	 * made again whole, `.gitignore` included, and one replaced by a link (a
	 * checkout can bring one), which is then refused instead of written
	 * through. A folder removed in the instant between is made again by the
	 * write into it (`writeFileAtomic`, the lock, the decision log each make
	 * their folder).
	 */
	private async ensureLayout(): Promise<void> {
		if (this.layoutMade && lstatSync(this.dir, { throwIfNoEntry: false })?.isDirectory()) return;
		await this.makeLayout();
		this.layoutMade = true;
	}

	private layoutMade = false;

	private async makeLayout(): Promise<void> {
		if (this.external) await ensureDir(path.dirname(this.dir));
		await makeFolder(this.dir);
		if (!(await exists(this.paths.gitignore))) {
			await writeFileAtomic(this.paths.gitignore, "# boulder's state: never commit it.\n*\n");
		}
		await makeFolder(this.paths.scopes);
	}
}

/** Writing over a bad file that could not be moved aside would lose it. */
function refuseIfStillInPlace<T>(current: Read<T>): void {
	if (current.kind === "unreadable" && current.problem.movedTo === null) {
		throw new BoulderError(
			"state-unreadable",
			`${current.problem.file} cannot be used and could not be moved aside (${current.problem.reason}); fix or remove it.`,
		);
	}
}

function strip<T>(read: VersionedRead<T>): Read<T> {
	return read.kind === "ok" ? { kind: "ok", value: read.value } : read;
}

async function makeFolder(dir: string): Promise<void> {
	// Looked at first: it is there on every event but a project's first, and a failed mkdir is a thrown error.
	if (await realFolder(dir)) return;
	try {
		await mkdir(dir, { mode: DIR_MODE });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") {
			throw new BoulderError("not-found", `Cannot create ${dir}: its parent folder does not exist.`, { cause: error });
		}
		if (code !== "EEXIST") throw error;
	}
	if (!(await realFolder(dir))) {
		throw new BoulderError("state-unreadable", `${dir} vanished while boulder was creating it.`);
	}
}

/**
 * A link or a file where boulder's folder should be is not followed: it could
 * lead writes outside the worktree.
 */
/** Synchronous, as `stampOf`: every read checks the folder, and a plain lstat is cheaper than a thread-pool trip. */
async function realFolder(dir: string): Promise<boolean> {
	const stat: Stats | undefined = lstatSync(dir, { throwIfNoEntry: false });
	if (stat === undefined) return false;
	if (stat.isDirectory()) return true;
	throw new BoulderError(
		"state-unreadable",
		`${dir} is ${stat.isSymbolicLink() ? "a link" : "not a folder"}; boulder keeps its state only in a real folder. Move it away.`,
	);
}

/** Synchronous: a view stamps many files per look, and a plain stat is cheaper than a thread-pool trip. */
async function stampOf(file: string): Promise<string> {
	try {
		const found = statSync(file);
		return `${found.ino}:${found.size}:${found.mtimeMs}`;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "-";
		throw error;
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
