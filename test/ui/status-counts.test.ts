/**
 * The dashboard's header and `boulder status --all --json` count from one
 * function (`core/standing.ts`) over the same state: a fleet with a session in
 * every standing (bench/ui-states.mjs, plus an idle session, an unreadable
 * state file, an unreadable works file, a worktree turned off and one whose
 * folder is gone), read both
 * ways, gives the same counts, and each session card once.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain module of the bench, here run against the sources
import { buildEveryState } from "../../bench/ui-states.mjs";
import { scopeKey } from "../../src/core/scope-key.js";
import { STANDING_ORDER } from "../../src/core/standing.js";
import { emptyContinuationState } from "../../src/core/turns.js";
import { Fleet } from "../../src/engine/fleet.js";
import { readStatusAll } from "../../src/engine/status.js";
import { FileStore } from "../../src/state/file-store.js";
import { recordWorktree } from "../../src/state/worktree-index.js";
import { headerCounts } from "../../src/ui/client/counts.js";
import { dashboardView } from "../../src/ui/view-model.js";
import { tempDir } from "../state/helpers.js";

const src = fileURLToPath(new URL("../../src", import.meta.url));

async function everyState() {
	const root = await tempDir("boulder-counts-");
	const env = {
		HOME: path.join(root, "home"),
		BOULDER_STATE_HOME: path.join(root, "state"),
		XDG_CONFIG_HOME: path.join(root, "config"),
	};
	const now = Date.now();
	const clock = { now: () => now };
	await buildEveryState({ dist: src, root: path.join(root, "projects"), env, now });
	// What the bench's fleet lacks: an idle session, an unreadable state file, a worktree stopped, one gone.
	const extra = path.join(root, "projects", "extra");
	await mkdir(path.join(extra, ".git"), { recursive: true });
	const store = new FileStore(extra, { clock });
	const idle = scopeKey({ kind: "session", harness: "gemini", sessionId: "ses-idle" }) as string;
	await store.updateScope(idle, () => ({ result: undefined, next: emptyContinuationState() }));
	const broken = scopeKey({ kind: "session", harness: "gemini", sessionId: "ses-broken" }) as string;
	await store.updateScope(broken, () => ({ result: undefined, next: emptyContinuationState() }));
	await writeFile(store.scopeFile(broken), '{"schemaVersion": 1, "state": {"cut short');
	// A finished work whose plan was removed once done: no problem, for the page nor the CLI.
	await store.updateWorks(() => ({
		result: undefined,
		next: {
			schemaVersion: 2,
			activeWorkId: null,
			stopped: null,
			works: {
				shipped: {
					id: "shipped",
					planPath: "SHIPPED.md",
					name: "Shipped",
					status: "completed",
					startedAt: now - 7_200_000,
					endedAt: now - 3_600_000,
					elapsedMs: 3_600_000,
					sessions: [],
					agent: null,
					worktree: extra,
					subagentSessions: {},
					verify: [],
					verifyTimeoutMs: null,
					lastVerification: null,
				},
			},
		},
	}));
	await recordWorktree(extra, { env, clock });
	const stopped = path.join(root, "projects", "stopped");
	await mkdir(path.join(stopped, ".git"), { recursive: true });
	const stoppedStore = new FileStore(stopped, { clock });
	await stoppedStore.updateWorks(() => ({
		result: undefined,
		next: { schemaVersion: 2, activeWorkId: null, stopped: { at: now, by: "`boulder stop`" }, works: {} },
	}));
	const rolling = scopeKey({ kind: "session", harness: "qwen", sessionId: "ses-was-rolling" }) as string;
	await stoppedStore.updateScope(rolling, () => ({
		result: undefined,
		next: {
			...emptyContinuationState(),
			lastDecision: { turnSeq: 1, kind: "inject", reason: "continue", key: null, at: now, delivery: "delivered" },
		},
	}));
	await recordWorktree(stopped, { env, clock });
	// A works file that cannot be read: a problem, and its session still counted.
	const unread = path.join(root, "projects", "unread-works");
	await mkdir(path.join(unread, ".git"), { recursive: true });
	const unreadStore = new FileStore(unread, { clock });
	const asks = scopeKey({ kind: "session", harness: "copilot", sessionId: "ses-asks-too" }) as string;
	await unreadStore.updateScope(asks, () => ({
		result: undefined,
		next: {
			...emptyContinuationState(),
			observed: { ...emptyContinuationState().observed, pendingInput: { kind: "permission" } },
		},
	}));
	await writeFile(path.join(unreadStore.dir, "works.json"), "{ not json");
	await recordWorktree(unread, { env, clock });
	const gone = path.join(root, "projects", "gone");
	await mkdir(path.join(gone, ".git"), { recursive: true });
	await recordWorktree(gone, { env, clock });
	await rm(gone, { recursive: true });
	return { env, now };
}

describe("the header's counts and `boulder status --all --json`'s", () => {
	it("are the same, from a fleet with every standing, and count each session card exactly once", async () => {
		const { env, now } = await everyState();
		const fleet = new Fleet({ env, index: { env } });
		await fleet.look();
		const view = dashboardView(fleet.snapshot(), now, 1);
		const header = headerCounts(view.worktrees);
		const status = await readStatusAll({ now, env, index: { env } });

		expect(status.counts).toEqual(header);
		for (const standing of STANDING_ORDER) expect(header.standing[standing], standing).toBeGreaterThan(0);
		expect(header).toMatchObject({ worktrees: 7, vanished: 1, stopped: 1, withProblem: 3, needYou: 4 });

		const cards = view.worktrees.flatMap((worktree) =>
			worktree.sessions.map((session) => `${worktree.root} ${session.scope} ${session.standing}`),
		);
		const listed = status.worktrees.flatMap((worktree) =>
			(worktree.standings ?? []).map((entry) => `${worktree.worktree} ${entry.scope} ${entry.standing}`),
		);
		expect(listed.sort()).toEqual(cards.sort());
		expect(new Set(cards).size).toBe(cards.length);
		expect(header.sessions).toBe(cards.length);
		expect(Object.values(header.standing).reduce((a, b) => a + b, 0)).toBe(cards.length);
		for (const worktree of view.worktrees.filter((entry) => !entry.vanished)) {
			const same = status.worktrees.find((entry) => entry.worktree === worktree.root);
			expect(same?.problemCount, worktree.root).toBe(worktree.problemCount);
		}
	});
});
