/**
 * `Store` in memory, for tests of the layers above. It keeps the file store's
 * observable behaviour: values are validated on write and copied on read,
 * scope keys are checked the same way, and a file made bad with `spoil` is
 * reported `unreadable` once, recorded as a problem, then reads as missing.
 */

import { DecisionRecord } from "../core/decision-record.js";
import { BoulderError } from "../core/errors.js";
import { ContinuationState } from "../core/turns.js";
import type { z } from "../core/zod.js";
import { scopeFilePath } from "./scope-path.js";
import type { Tallied } from "./scope-tally.js";
import {
	type Clock,
	type Read,
	type ReadDecisionsQuery,
	type StateProblem,
	type Store,
	systemClock,
	type Update,
} from "./store.js";
import { emptyTrust, type TrustFile, type TrustGrant, type TrustView, withGrant } from "./trust.js";
import { type ClaimResult, isLive, type VerifyClaim } from "./verify-claims.js";
import { type AsideReason, asideName } from "./versioned-file.js";
import { WorksFile } from "./works.js";

type Slot<T> = { kind: "ok"; value: T } | { kind: "bad"; reason: AsideReason };

const SCOPES = "/.boulder/scopes";

/** The marks a memory store keeps per tally: more than the largest window todo hygiene asks for (`editsBeforeReminder` + 1). */
const MEMORY_TALLY_MARKS = 10_002;

export class MemoryStore implements Store {
	readonly worktree: string;
	private readonly clock: Clock;
	private readonly scopes = new Map<string, Slot<ContinuationState>>();
	private works: Slot<WorksFile> | null = null;
	private readonly decisions: DecisionRecord[] = [];
	private readonly movedAside: StateProblem[] = [];
	/** null: every work is trusted (the default); otherwise only what was granted, as in the file store. */
	private trust: TrustFile | null;

	/** `trust: "recorded"` keeps a trust record like the file store's; by default every work is trusted. */
	constructor(worktree = "/memory/worktree", options: { clock?: Clock; trust?: "all" | "recorded" } = {}) {
		this.worktree = worktree;
		this.clock = options.clock ?? systemClock;
		this.trust = options.trust === "recorded" ? emptyTrust(worktree) : null;
	}

	private readonly claims = new Map<string, VerifyClaim>();

	async claimVerify(workId: string, until: number): Promise<ClaimResult> {
		const held = this.claims.get(workId);
		if (held && isLive(held, this.clock.now())) return { granted: false, holder: { ...held } };
		this.claims.set(workId, { pid: process.pid, group: null, at: this.clock.now(), until });
		return { granted: true };
	}

	async noteVerifyGroup(workId: string, group: number | null): Promise<void> {
		const held = this.claims.get(workId);
		if (held) this.claims.set(workId, { ...held, group });
	}

	async releaseVerify(workId: string): Promise<void> {
		this.claims.delete(workId);
	}

	async readTrust(): Promise<TrustView> {
		return this.trust === null ? null : structuredClone(this.trust);
	}

	async grantTrust(grant: TrustGrant): Promise<void> {
		if (this.trust !== null) this.trust = withGrant(this.trust, grant, this.clock.now());
	}

	/** Like the file store: a plain read changes nothing; only `updateScope` moves a bad file aside. */
	async readScope(scopeKey: string): Promise<Read<ContinuationState>> {
		checkKey(scopeKey);
		const slot = this.scopes.get(scopeKey);
		if (!slot) return { kind: "missing" };
		if (slot.kind === "ok") return { kind: "ok", value: structuredClone(slot.value) };
		const file = `${this.worktree}/.boulder/scopes/${scopeKey}.json`;
		return { kind: "unreadable", problem: { file, movedTo: null, reason: slot.reason, at: this.clock.now() } };
	}

	async updateScope<R>(
		scopeKey: string,
		fn: (current: Read<ContinuationState>) => Update<R, ContinuationState>,
	): Promise<R> {
		checkKey(scopeKey);
		const current = this.take(this.scopes.get(scopeKey) ?? null, `scopes/${scopeKey}.json`, () =>
			this.scopes.delete(scopeKey),
		);
		const { result, next } = fn(current);
		if (next !== null) this.scopes.set(scopeKey, { kind: "ok", value: valid(ContinuationState, next, "scope state") });
		return result;
	}

	async tally(scopeKey: string, mark: string, window: number): Promise<Tallied> {
		checkKey(scopeKey);
		const tally = this.tallies.get(scopeKey) ?? { place: 0, marks: [] };
		tally.place++;
		tally.marks.push(mark);
		// A long-lived host's tally keeps only what any window can ask for.
		if (tally.marks.length > 2 * MEMORY_TALLY_MARKS) tally.marks.splice(0, tally.marks.length - MEMORY_TALLY_MARKS);
		this.tallies.set(scopeKey, tally);
		return { place: tally.place, marks: tally.marks.slice(-Math.max(1, window)) };
	}

	private readonly tallies = new Map<string, { place: number; marks: string[] }>();

	async scopeKeys(): Promise<Set<string>> {
		return new Set(this.scopes.keys());
	}

	async readWorks(): Promise<Read<WorksFile>> {
		return this.take(this.works, "works.json", () => {
			this.works = null;
		});
	}

	async peekWorks(): Promise<Read<WorksFile>> {
		const slot = this.works;
		if (slot === null) return { kind: "missing" };
		if (slot.kind === "ok") return { kind: "ok", value: structuredClone(slot.value) };
		const file = `${this.worktree}/.boulder/works.json`;
		return { kind: "unreadable", problem: { file, movedTo: null, reason: slot.reason, at: this.clock.now() } };
	}

	async updateWorks<R>(fn: (current: Read<WorksFile>) => Update<R, WorksFile>): Promise<R> {
		const current = this.take(this.works, "works.json", () => {
			this.works = null;
		});
		const { result, next } = fn(current);
		if (next !== null) this.works = { kind: "ok", value: valid(WorksFile, next, "works file") };
		return result;
	}

	async appendDecision(record: DecisionRecord): Promise<void> {
		this.decisions.push(valid(DecisionRecord, record, "decision record"));
	}

	async readDecisions(options: ReadDecisionsQuery = {}): Promise<DecisionRecord[]> {
		const limit = options.limit ?? Number.POSITIVE_INFINITY;
		const newestFirst: DecisionRecord[] = [];
		for (let index = this.decisions.length - 1; index >= 0 && newestFirst.length < limit; index--) {
			const record = structuredClone(this.decisions[index] as DecisionRecord);
			if (options.session !== undefined && record.session !== options.session) continue;
			newestFirst.push(record);
			if (options.enough?.(record)) break;
		}
		return newestFirst.reverse();
	}

	async problems(): Promise<StateProblem[]> {
		return structuredClone(this.movedAside);
	}

	/** Test hook: the scope's file (or the works file) turns bad, as if hand-edited or from a newer boulder. */
	spoil(target: { scope: string } | "works", reason: AsideReason = "corrupt"): void {
		if (target === "works") {
			this.works = { kind: "bad", reason };
			return;
		}
		checkKey(target.scope);
		this.scopes.set(target.scope, { kind: "bad", reason });
	}

	private take<T>(slot: Slot<T> | null, name: string, drop: () => void): Read<T> {
		if (slot === null) return { kind: "missing" };
		if (slot.kind === "ok") return { kind: "ok", value: structuredClone(slot.value) };
		drop();
		const at = this.clock.now();
		const problem: StateProblem = {
			file: `${this.worktree}/.boulder/${name}`,
			movedTo: `${this.worktree}/.boulder/${asideName(name, slot.reason, at, 1)}`,
			reason: slot.reason,
			at,
		};
		this.movedAside.push(problem);
		return { kind: "unreadable", problem: structuredClone(problem) };
	}
}

function checkKey(scopeKey: string): void {
	scopeFilePath(SCOPES, scopeKey);
}

function valid<T>(schema: z.ZodMiniType<T>, value: unknown, label: string): T {
	const parsed = schema.safeParse(value);
	if (!parsed.success)
		throw new BoulderError("internal", `Refusing to store an invalid ${label}: ${parsed.error.message}`);
	return structuredClone(parsed.data);
}
