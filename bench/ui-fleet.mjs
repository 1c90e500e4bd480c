/**
 * Builds a fleet of worktrees for the dashboard's bench and screenshot, with
 * the built package's own state layer (`dist/`): real plan files, works
 * files, scope files with episodes, decision logs (optionally large: a full
 * current file and a rotated one) and a user-level worktree index.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

const STATUSES = ["active", "paused", "completed", "completed", "abandoned", "completed", "completed", "completed"];
const REASONS = [
	["inject", "continue", "3 item(s) still open; continuing with: write the tests"],
	["skip", "awaiting-user", "the agent asked: should the parser accept tabs?"],
	["skip", "stagnation", "the last 3 nudges brought no progress"],
	["skip", "user-aborted", "the user pressed Esc"],
	["inject", "continue", "2 item(s) still open; continuing with: document it"],
];

/**
 * @param {object} options
 * @param {string} options.dist the built package's `dist/` folder
 * @param {string} options.root where the worktrees go
 * @param {Record<string, string>} options.env the user's folders (BOULDER_STATE_HOME, …)
 * @param {number} options.now
 * @param {string[]} options.names one worktree per name
 * @param {number} options.worksPerWorktree
 * @param {number} options.itemsPerPlan
 * @param {number} options.logBytes bytes of decision log per file (current and one rotated); 0 for a short log
 */
export async function buildFleet(options) {
	const { FileStore, recordWorktree } = await import(path.join(options.dist, "state", "index.js"));
	const { emptyContinuationState } = await import(path.join(options.dist, "core", "turns.js"));
	const { scopeKey } = await import(path.join(options.dist, "core", "scope-key.js"));
	const roots = [];
	for (const [w, name] of options.names.entries()) {
		const dir = path.join(options.root, name);
		roots.push(dir);
		await mkdir(path.join(dir, ".git"), { recursive: true });
		await mkdir(path.join(dir, "plans"), { recursive: true });
		const clock = { now: () => options.now };
		const store = new FileStore(dir, { clock });
		const works = {};
		let activeWorkId = null;
		const sessions = [];
		for (let k = 0; k < options.worksPerWorktree; k++) {
			const id = `plan-${k}`;
			const planPath = `plans/plan-${k}.md`;
			const status = STATUSES[(k + w) % STATUSES.length];
			const live = status === "active" || status === "paused";
			const open = live ? 2 + ((w + k) % 5) : status === "completed" ? 0 : 3;
			await writeFile(path.join(dir, planPath), plan(k, options.itemsPerPlan, open, w));
			if (status === "active" && activeWorkId === null) activeWorkId = id;
			const startedAt = options.now - (k + 1) * 47 * 60_000 - w * 61_000;
			const session = {
				harness: w % 3 === 2 ? "opencode" : "claude-code",
				sessionId: `ses-${w}-${k}`,
				how: "direct",
				at: startedAt,
			};
			if (live) sessions.push({ ...session, work: id, w, k });
			works[id] = {
				id,
				planPath,
				name: TITLES[(w + k) % TITLES.length],
				status: status === "active" && activeWorkId !== id ? "paused" : status,
				startedAt,
				endedAt: live ? null : startedAt + 50 * 60_000,
				elapsedMs: live ? null : 50 * 60_000,
				sessions: live ? [session] : [],
				agent: null,
				worktree: dir,
				subagentSessions: {},
				verify: ["npm test"],
				verifyTimeoutMs: null,
				lastVerification:
					status === "completed"
						? { at: startedAt + 50 * 60_000, passed: true, command: null, exitCode: 0, output: "" }
						: null,
			};
		}
		await store.updateWorks(() => ({
			result: undefined,
			next: { schemaVersion: 2, activeWorkId, stopped: null, works },
		}));
		for (const session of sessions) {
			const key = scopeKey({ kind: "session", harness: session.harness, sessionId: session.sessionId });
			session.scope = key;
			const turns = 3 + ((session.w + session.k) % 9);
			const state = {
				...emptyContinuationState(),
				seq: turns + 1,
				turn: {
					seq: turns + 1,
					provenance: "continuation",
					startedAt: options.now - 90_000,
					outcome: session.k === 0 && session.w % 2 === 0 ? null : "end",
					endedAt: session.k === 0 && session.w % 2 === 0 ? null : options.now - 20_000,
					tokens: 48_000,
					activity: 2,
					nudgeKey: null,
				},
				episode: {
					id: `ep-${session.w}-${session.k}`,
					startedAt: options.now - (20 + turns * 4) * 60_000,
					autoTurns: turns,
					tokens: turns * 210_000,
					stagnation: session.w % 4 === 3 ? 2 : 0,
					graceUsed: 0,
					errors: 0,
					earned: 1,
					bestOpen: 3,
					bestDone: 5,
				},
				lastDecision: {
					turnSeq: turns,
					kind: session.w % 5 === 1 ? "skip" : "inject",
					reason: session.w % 5 === 1 ? "awaiting-user" : "continue",
					key: null,
					at: options.now - 25_000,
					delivery: "delivered",
				},
				observed: {
					harness: session.harness,
					sessionId: session.sessionId,
					agent: null,
					backgroundTasks: 0,
					pendingInput: session.w % 5 === 1 ? { kind: "question", detail: "should the parser accept tabs?" } : null,
				},
			};
			await store.updateScope(key, () => ({ result: undefined, next: state }));
		}
		await writeLog(store, dir, sessions, options);
		await recordWorktree(dir, { env: options.env, clock: { now: () => options.now - w * 1000 } });
	}
	return roots;
}

async function writeLog(store, dir, sessions, options) {
	const files =
		options.logBytes > 0
			? [store.paths.decisions.replace(/\.jsonl$/, ".1.jsonl"), store.paths.decisions]
			: [store.paths.decisions];
	const perFile = options.logBytes > 0 ? options.logBytes : 2_000;
	let at = options.logBytes > 0 ? options.now - 24 * 3600_000 : options.now - 50 * 60_000;
	for (const [index, file] of files.entries()) {
		const lines = [];
		let size = 0;
		for (let n = 0; size < perFile; n++) {
			const session = sessions[n % Math.max(1, sessions.length)];
			const [kind, reason, detail] = REASONS[n % REASONS.length];
			at += index === files.length - 1 && options.logBytes === 0 ? 60_000 : 1_500;
			const line = `${JSON.stringify({
				v: 1,
				at: Math.min(at, options.now - 30_000),
				worktree: dir,
				scope: session?.scope ?? null,
				harness: session?.harness ?? null,
				session: session?.sessionId ?? null,
				work: session?.work ?? null,
				kind,
				reason,
				detail,
				figures: { open: 3, done: 5, total: 9, stagnation: reason === "stagnation" ? 3 : 0 },
			})}\n`;
			lines.push(line);
			size += Buffer.byteLength(line);
		}
		await writeFile(file, lines.join(""), { mode: 0o600 });
	}
}

const TITLES = [
	"Ship the parser",
	"Tidy the docs",
	"Port the CLI to Windows",
	"Fix the flaky tests",
	"Add the OpenCode adapter",
	"Speed up the hook",
	"Write the migration",
	"Clean up the config",
];

const ITEMS = [
	"Read the spec and list the cases",
	"Write the failing tests",
	"Make them pass",
	"Handle empty input",
	"Handle very long lines",
	"Document the options",
	"Update the changelog",
	"Ask for a review",
	"Fix what the review found",
	"Release it",
];

function plan(k, count, open, w) {
	const lines = [];
	for (let i = 0; i < count; i++) {
		const title = `${ITEMS[i % ITEMS.length]}${i >= ITEMS.length ? ` (part ${Math.floor(i / ITEMS.length) + 1})` : ""}`;
		const mark = i < count - open ? "x" : i === count - 1 && (w + k) % 2 === 0 ? "~" : " ";
		lines.push(`- [${mark}] ${title}`);
		if (i % 3 === 1) lines.push(`  - [${mark === "x" ? "x" : " "}] it is covered by a test`);
	}
	return `---\nverify: npm test\n---\n# ${TITLES[k % TITLES.length]}\n\n${lines.join("\n")}\n`;
}
