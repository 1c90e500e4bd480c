/**
 * The fleet end to end: a real PostgreSQL (a throwaway cluster), two
 * simulated machines on this host (own HOME, state folder and
 * `BOULDER_MACHINE`), and the real Claude Code binary rolling a plan on the
 * machine "runner", against the scripted model server. Its hooks start the
 * shipper themselves (nothing is shipped by hand on the runner); from the
 * machine "laptop", `boulder fleet stop runner` stops it remotely in the
 * middle of its episode: the runner applies the command through its own
 * engine, its next decision is `disabled`, the agent stops with items left,
 * and `boulder why` there says "by the fleet, from laptop". The fleet view
 * on the laptop shows the runner's work in the local view's words.
 *
 * Needs `npm run build` (the CLI and the bundled hook program).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgCluster, startPgCluster } from "../fleet/support/pg-cluster.js";
import {
	type AnthropicServer,
	lastUserText,
	type ReplyStep,
	startAnthropicServer,
} from "./support/anthropic-server.js";
import { type CliPlace, runBoulder, runBoulderOk } from "./support/boulder-cli.js";
import { type ClaudeSandbox, cliPlace, createSandbox, runClaude } from "./support/claude-run.js";
import { CLAUDE_HOOK, NUDGE, readDecisionLog, requireBuilt, writeProjectFiles } from "./support/suite.js";

const TEST_TIMEOUT_MS = 240_000;
const PLAN = "# Roll the list\n\n- [ ] Item one\n- [ ] Item two\n- [ ] Item three\n- [ ] Item four\n";

let cluster: PgCluster;
let admin: pg.Client;
let sandbox: ClaudeSandbox;
let laptopHome: string;
let runner: CliPlace;
let laptop: CliPlace;
let server: AnthropicServer | undefined;
/** What both machines' environments add: the fleet's URL, and a shipper that lingers through the run. */
let FLEET: Record<string, string> = {};

beforeAll(async () => {
	requireBuilt(CLAUDE_HOOK);
	cluster = await startPgCluster();
	admin = new pg.Client({ connectionString: cluster.url });
	await admin.connect();
	sandbox = await createSandbox();
	FLEET = { BOULDER_FLEET_URL: cluster.url, BOULDER_FLEET_LINGER_MS: "60000" };
	const fleet = FLEET;
	const place = cliPlace(sandbox);
	runner = { cwd: place.cwd, env: { ...place.env, ...fleet, BOULDER_MACHINE: "runner" } };
	laptopHome = await mkdtemp(join(tmpdir(), "boulder-e2e-laptop-"));
	laptop = {
		cwd: laptopHome,
		env: {
			PATH: process.env.PATH,
			HOME: laptopHome,
			BOULDER_STATE_HOME: join(laptopHome, "state"),
			NO_COLOR: "1",
			...fleet,
			BOULDER_MACHINE: "laptop",
			BOULDER_FLEET_AUTOSHIP: "off",
		},
	};
	await runBoulderOk(["install", "claude-code", "--project"], runner);
	await writeProjectFiles(sandbox.project, { "plan.md": PLAN });
	await runBoulderOk(["start", "plan.md"], runner);
}, TEST_TIMEOUT_MS);

afterAll(async () => {
	await server?.close();
	await admin?.end();
	// A shipper the hooks started may still linger: ask it to stop by letting the database go.
	cluster?.destroy();
	await sandbox?.dispose();
	if (laptopHome) await rm(laptopHome, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

const bash = (command: string): ReplyStep => ({
	toolUses: [{ name: "Bash", input: { command, description: "tick" } }],
});
const tick = (n: number) => bash(`sed -i '0,/- \\[ \\]/s//- [x]/' plan.md # item ${n}`);

async function commandRow(): Promise<{
	state: string;
	result: string | null;
	created: number;
	applied: number | null;
} | null> {
	const rows = await admin.query(
		"SELECT state, result, created_at, applied_at FROM boulder_commands WHERE machine = 'runner' ORDER BY id DESC LIMIT 1",
	);
	const row = rows.rows[0];
	return row
		? {
				state: row.state,
				result: row.result,
				created: row.created_at.getTime(),
				applied: row.applied_at ? row.applied_at.getTime() : null,
			}
		: null;
}

describe("the fleet with the real Claude Code", () => {
	it(
		"stops a plan rolling on one machine from another, mid-episode, through the target's own engine",
		async () => {
			let stopSent: Promise<unknown> | null = null;
			server = await startAnthropicServer(
				({ index, request }) => {
					const nudged = lastUserText(request).includes(NUDGE);
					// The first nudge has arrived: the runner is mid-episode. The laptop stops it now.
					if (nudged && stopSent === null) {
						stopSent = runBoulder(["fleet", "stop", "runner", "--wait", "60"], laptop);
						// Positions the stop inside this turn (the answer waits); the outcome never depends on it being short.
						return { ...tick(index), delayMs: 8_000 };
					}
					return index % 2 === 0 ? tick(index) : { text: `Ticked item ${Math.ceil(index / 2)}.` };
				},
				{ whenExhausted: { text: "Nothing more to do." } },
			);

			const run = await runClaude(sandbox, {
				prompt: "Roll the plan.",
				baseUrl: server.url,
				timeoutMs: 120_000,
				env: { ...FLEET, BOULDER_MACHINE: "runner" },
			});
			const log0 = await readDecisionLog(sandbox.project, { missingIsEmpty: true });
			const trace = JSON.stringify({
				requests: server.mainRequests().length,
				decisions: log0.map((record) => `${record.kind}:${record.reason}:${String(record.detail).slice(0, 80)}`),
				command: await commandRow(),
				stderr: run.stderr.slice(-500),
			});
			expect(run.timedOut, trace).toBe(false);
			expect(run.exitCode).toBe(0);
			expect(stopSent).not.toBeNull();
			const sent = (await (stopSent as unknown as Promise<{ code: number; stdout: string }>)) ?? {
				code: -1,
				stdout: "",
			};
			expect(sent.stdout).toContain("Applied: stop runner");

			const nudges = server.mainRequests().filter((request) => lastUserText(request).includes(NUDGE));
			expect(nudges).toHaveLength(1);
			const log = await readDecisionLog(sandbox.project);
			const decisions = log.filter((record) => record.kind !== "event");
			expect(decisions.at(-1)).toMatchObject({ kind: "skip", reason: "disabled" });
			expect(await runBoulderOk(["why"], runner)).toContain("by the fleet, from laptop");
			const row = await commandRow();
			expect(row).toMatchObject({ state: "applied" });

			// The runner's own shipper (started by its hooks) mirrored the stop and the decisions after it.
			const shipped = await admin.query(
				"SELECT count(*)::int AS n FROM boulder_decisions WHERE machine = 'runner' AND reason = 'disabled'",
			);
			const deadline = Date.now() + 30_000;
			let disabledRows = shipped.rows[0].n as number;
			while (disabledRows === 0 && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 200));
				const again = await admin.query(
					"SELECT count(*)::int AS n FROM boulder_decisions WHERE machine = 'runner' AND reason = 'disabled'",
				);
				disabledRows = again.rows[0].n;
			}
			expect(disabledRows).toBe(1);

			const view = JSON.parse(await runBoulderOk(["status", "--fleet", "--json"], laptop));
			const runnerView = view.machines.find((machine: { machine: string }) => machine.machine === "runner");
			expect(runnerView.worktrees[0].stopped).toMatchObject({ by: "the fleet, from laptop" });
			expect(runnerView.worktrees[0].works[0].progress.open).toBeGreaterThan(0);
		},
		TEST_TIMEOUT_MS,
	);
});
