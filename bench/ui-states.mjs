/**
 * A small fleet with a session in every state the dashboard shows, built with
 * the built package's own state layer (`dist/`): for the dashboard's browser
 * test and its screenshots (`scripts/ui-screenshot.mjs`). Three worktrees:
 *
 * - `parser`: an active work whose decision log carries its progress over
 *   time, with sessions rolling, held (no progress), held (budget), verify
 *   failed (30 lines of output) and done;
 * - `docs-site`: a work whose plan file is missing, a session waiting on a
 *   question and one turned off;
 * - `cli-windows`, under a long path: a session rolling its own todo list.
 *
 * Returns the roots and the records logged for the `parser` work.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** Where Claude Code would keep the rolling session's transcript: shown on its card to copy, never read. */
export const TRANSCRIPT = "/home/jo/.claude/projects/-home-jo-src-parser/ses-rolling.jsonl";

const PLAN =
	"---\nverify: npm test\n---\n# Ship the parser\n\n- [x] Read the spec\n- [x] Write the failing tests\n- [x] Make them pass\n- [ ] Handle empty input\n  - [ ] returns an empty list\n  - [x] never throws\n- [ ] Document it\n";

/**
 * @param {{ dist: string, root: string, env: Record<string, string | undefined>, now: number }} options
 */
export async function buildEveryState(options) {
	const { FileStore, recordWorktree } = await import(path.join(options.dist, "state", "index.js"));
	const { emptyContinuationState } = await import(path.join(options.dist, "core", "turns.js"));
	const { scopeKey } = await import(path.join(options.dist, "core", "scope-key.js"));
	const now = options.now;
	const clock = { now: () => now };
	const minute = 60_000;

	async function project(name) {
		const dir = path.join(options.root, name);
		await mkdir(path.join(dir, ".git"), { recursive: true });
		return { dir, store: new FileStore(dir, { clock }) };
	}
	function work(dir, id, planPath, name, extra = {}) {
		return {
			id,
			planPath,
			name,
			status: "active",
			startedAt: now - 95 * minute,
			endedAt: null,
			elapsedMs: null,
			sessions: [],
			agent: null,
			worktree: dir,
			subagentSessions: {},
			verify: [],
			verifyTimeoutMs: null,
			lastVerification: null,
			...extra,
		};
	}
	async function scope(store, harness, sessionId, state) {
		const key = scopeKey({ kind: "session", harness, sessionId });
		const base = emptyContinuationState();
		await store.updateScope(key, () => ({
			result: undefined,
			next: { ...base, ...state, observed: { ...base.observed, harness, sessionId, ...(state.observed ?? {}) } },
		}));
		return key;
	}
	const episode = (autoTurns, tokens, stagnation = 0) => ({
		id: `ep-${autoTurns}`,
		startedAt: now - 40 * minute,
		autoTurns,
		tokens,
		stagnation,
		graceUsed: 0,
		errors: 0,
		earned: 1,
		bestOpen: 2,
		bestDone: 3,
	});
	const decision = (kind, reason, at) => ({ turnSeq: 3, kind, reason, key: null, at, delivery: "delivered" });
	const record = (dir, fields) => ({
		v: 1,
		worktree: dir,
		scope: null,
		harness: null,
		session: null,
		work: null,
		detail: "",
		...fields,
	});

	// parser: the work's history, and five sessions.
	const parser = await project("parser");
	await writeFile(path.join(parser.dir, "PLAN.md"), PLAN);
	const sessions = ["ses-rolling", "ses-stuck", "ses-budget", "ses-verify", "ses-done"];
	const bound = sessions.map((sessionId) => ({
		harness: "claude-code",
		sessionId,
		how: "direct",
		at: now - 90 * minute,
	}));
	const failing = Array.from(
		{ length: 30 },
		(_, n) => `FAIL test/parser.test.ts > case ${n + 1}: expected [] to equal [ 'x' ]`,
	).join("\n");
	await parser.store.updateWorks(() => ({
		result: undefined,
		next: {
			schemaVersion: 2,
			activeWorkId: "ship-the-parser",
			stopped: null,
			works: {
				"ship-the-parser": work(parser.dir, "ship-the-parser", "PLAN.md", "Ship the parser", {
					sessions: bound,
					verify: ["npm test"],
					lastVerification: { at: now - 3 * minute, passed: false, command: "npm test", exitCode: 1, output: failing },
				}),
			},
		},
	}));
	const history = [];
	const steps = [
		["event", "user-turn", 0],
		["inject", "continue", 0],
		["inject", "continue", 1],
		["inject", "continue", 2],
		["skip", "awaiting-user", 2],
		["event", "user-turn", 2],
		["inject", "continue", 3],
		["skip", "stagnation", 3],
	];
	for (const [index, [kind, reason, done]] of steps.entries()) {
		const at = now - (80 - index * 9) * minute;
		const line = record(parser.dir, {
			at,
			scope: scopeKey({ kind: "session", harness: "claude-code", sessionId: "ses-rolling" }),
			harness: "claude-code",
			session: "ses-rolling",
			work: "ship-the-parser",
			kind,
			reason,
			detail: kind === "inject" ? `${5 - done} item(s) still open; continuing` : reason,
			...(kind === "event"
				? {}
				: {
						figures: {
							open: 5 - done,
							done,
							blocked: 0,
							total: 5,
							tokensLeft: 5_000_000 - index * 400_000,
							earned: 1,
							stagnation: reason === "stagnation" ? 3 : 0,
						},
					}),
		});
		await parser.store.appendDecision(line);
		history.push(line);
	}
	await scope(parser.store, "claude-code", "ses-rolling", {
		episode: episode(4, 1_800_000),
		lastDecision: decision("inject", "continue", now - 2 * minute),
		observed: { transcriptPath: TRANSCRIPT },
	});
	await scope(parser.store, "claude-code", "ses-stuck", {
		episode: episode(6, 900_000, 3),
		lastDecision: decision("skip", "stagnation", now - 5 * minute),
	});
	await scope(parser.store, "claude-code", "ses-budget", {
		episode: episode(40, 2_000_000),
		lastDecision: decision("skip", "budget-turns", now - 7 * minute),
	});
	await scope(parser.store, "claude-code", "ses-verify", {
		episode: episode(3, 300_000),
		lastDecision: decision("inject", "verify-failed", now - 3 * minute),
	});
	await scope(parser.store, "claude-code", "ses-done", {
		lastDecision: decision("complete", "complete", now - 30 * minute),
	});
	await recordWorktree(parser.dir, { env: options.env, clock });

	// docs-site: a missing plan, a question, a session turned off.
	const docs = await project("docs-site");
	await docs.store.updateWorks(() => ({
		result: undefined,
		next: {
			schemaVersion: 2,
			activeWorkId: "refactor",
			stopped: null,
			works: { refactor: work(docs.dir, "refactor", "REFACTOR.md", "Refactor the site") },
		},
	}));
	await scope(docs.store, "opencode", "ses-asks", {
		lastDecision: decision("skip", "awaiting-user", now - 4 * minute),
		observed: { pendingInput: { kind: "question", detail: "should the old links redirect?" } },
	});
	await scope(docs.store, "opencode", "ses-off", {
		disabled: { at: now - 20 * minute, by: "`boulder stop`" },
		lastDecision: decision("skip", "disabled", now - 20 * minute),
	});
	await recordWorktree(docs.dir, { env: options.env, clock });

	// cli-windows, deep in a long path: a session with its own todo list.
	const cli = await project(path.join("clients", "acme-corporation", "long-running-migration-branches", "cli-windows"));
	await scope(cli.store, "codex", "ses-own-list", {
		episode: episode(2, 120_000),
		lastDecision: decision("inject", "continue", now - 1 * minute),
		todos: [
			{ content: "Port the path handling to Windows", status: "completed" },
			{ content: "Quote arguments for cmd.exe", status: "in_progress" },
			{ content: "Run the suite on a Windows runner", status: "pending" },
		],
	});
	await recordWorktree(cli.dir, { env: options.env, clock });

	return { parser: parser.dir, docs: docs.dir, cli: cli.dir, history };
}
