/**
 * The Claude Code hook under generated input, in-process through
 * `runClaudeCodeHook` with the real workspace (file store, config, transcript
 * reading): for every hook event, mutated real payloads, random JSON, bytes
 * and text, huge and deep values, hostile ids, hostile transcripts and
 * project folders, stdin that breaks.
 *
 * For every input: nothing escapes the call, it settles within a generous
 * bound (a hang is a finding, not a timing), stdout is empty or one JSON
 * object Claude Code reads, and `{"decision":"block"}` comes only for a
 * well-formed Stop of a root session in the worktree, whose list has open
 * items, with a real transcript. Sweeps run every hostile transcript at a
 * Stop that would otherwise be continued, then the same Stop with a real
 * transcript, which must block: the fuzzer proves it reaches the nudge.
 *
 * Counts: `scale.ts` (small in `npm test`, 100,000 per event under `npm run fuzz`).
 *
 * In the process tier although it starts no process: it changes the working
 * folder, which a test may do only in a process of its own.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClaudeCodeHook } from "../../src/adapters/claude-code/dialect.js";
import { HOOK_EVENTS } from "../../src/adapters/claude-code/events.js";
import { readTurn } from "../../src/adapters/claude-code/transcript.js";
import {
	caseArb,
	GOOD_IDS,
	type HookCase,
	HUGE_KINDS,
	type Places,
	releaseFifos,
	stdinStream,
} from "./claude-code-inputs.js";
import { FuzzRun, FuzzWorld, type Outcome } from "./claude-code-run.js";
import { FULL, HANG_MS, Hang, SEED, scaled, withinBound } from "./scale.js";

const PER_EVENT = scaled(150, 100_000);
/** Calls before the worktrees are replaced by fresh ones, so state and logs stay small. */
const ROTATE_EVERY = scaled(400, 2_000);
const BATCH = 250;
const HUGE_HANG_MS = 30_000;

let world: FuzzWorld;
let previousCwd: string;

beforeAll(async () => {
	world = await FuzzWorld.create("boulder-fuzz-cc-");
	// Relative paths in the inputs ("." or "..") resolve here, never in the repository.
	previousCwd = process.cwd();
	process.chdir(world.fixtures.root);
}, 60_000);

afterAll(async () => {
	process.chdir(previousCwd);
	await world.close();
});

/** The real transcript reader, without the real waits between its re-reads (a lagging file is read again at once). */
const quickReadTurn: typeof readTurn = (file, options) => readTurn(file, { ...options, sleep: async () => {} });

async function inProcess(kase: HookCase, places: Places): Promise<Outcome> {
	let stdout = "";
	const fail = (what: string) => () => {
		throw new Error(`EPIPE: ${what} is gone`);
	};
	const streams = {
		stdin: stdinStream(kase.stdin, kase.event ?? "Stop", places),
		stdout: {
			write:
				kase.streams === "stdout-throws"
					? fail("stdout")
					: (chunk: string) => {
							stdout += chunk;
							return true;
						},
		},
		stderr: { write: kase.streams === "stderr-throws" ? fail("stderr") : () => true },
		env: kase.projectDir === undefined ? world.env : { ...world.env, CLAUDE_PROJECT_DIR: kase.projectDir },
		cwd: kase.processCwd,
	};
	const started = performance.now();
	const call = runClaudeCodeHook(kase.event === undefined ? [] : [kase.event], streams, { readTurn: quickReadTurn });
	try {
		// Huge inputs are slow by nature (tens of MB to parse and log): a longer bound, still only to catch a hang.
		await withinBound(call, `the ${kase.event} hook`, kase.stdin.kind === "huge" ? HUGE_HANG_MS : HANG_MS);
		return { stdout, ms: performance.now() - started, error: null };
	} catch (error) {
		const ms = performance.now() - started;
		if (error instanceof Hang) {
			// Let a reader stuck on the FIFO go, so one hang does not starve every later call.
			releaseFifos(world.fixtures);
			await withinBound(call, "the hung hook after its FIFO was released", 30_000).catch(() => undefined);
		}
		return { stdout, ms, error };
	}
}

/** The huge inputs: each for every event in full runs, each once in all in small ones. */
async function huge(run: FuzzRun, places: Places): Promise<void> {
	for (const [n, event] of HOOK_EVENTS.entries()) {
		for (const [k, kind] of HUGE_KINDS.entries()) {
			if (!FULL && k % HOOK_EVENTS.length !== n) continue;
			const kase: HookCase = {
				event,
				stdin: { kind: "huge", huge: kind },
				projectDir: places.good,
				processCwd: places.good,
				streams: "ok",
				label: `huge: ${kind}`,
			};
			await run.check(kase, places);
		}
	}
}

describe("the Claude Code hook under generated input", () => {
	it(
		`answers ${PER_EVENT} generated inputs per event without a throw, a hang, or an unwarranted block`,
		async () => {
			const run = new FuzzRun(world, inProcess);
			let places = await world.places();
			await run.sweep(places);
			await huge(run, places);
			const sweeps = FULL ? Number.POSITIVE_INFINITY : 1;
			const total = PER_EVENT * HOOK_EVENTS.length;
			const arbs = new Map<string, fc.Arbitrary<HookCase>>();
			const stray = fc.constantFrom<string | undefined>(undefined, "Notification", "stop", "PreToolUse", "");
			for (let done = 0, batch = 0; done < total && !run.full; batch++) {
				if (done > 0 && done % ROTATE_EVERY < BATCH) {
					const previous = places;
					places = await world.places();
					arbs.clear();
					if (run.sweeps < sweeps) await run.sweep(places);
					await world.drop(previous);
				}
				for (const event of HOOK_EVENTS) {
					if (!arbs.has(event)) arbs.set(event, caseArb(event, places, { hostileStreams: true }));
				}
				for (let n = 0; n < BATCH && done < total && !run.full; n++, done++) {
					// Round robin, so every event gets its share and lists, prompts and stops meet.
					const event = HOOK_EVENTS[done % HOOK_EVENTS.length] as string;
					const seed = SEED + batch * 100_003 + n;
					const [kase] = fc.sample(arbs.get(event) as fc.Arbitrary<HookCase>, { seed, numRuns: 1 });
					await run.check(kase as HookCase, places);
					if (n % 50 === 0) {
						const [odd] = fc.sample(stray, { seed, numRuns: 1 });
						await run.check({ ...(kase as HookCase), event: odd, label: "stray event" }, places);
					}
				}
				// Huge inputs are slow by nature: again every 100,000 calls in full runs.
				if (FULL && batch % 400 === 399) await huge(run, places);
			}
			const text = run.report();
			console.log(text);

			expect(run.findings, text).toEqual([]);
			for (const event of HOOK_EVENTS) expect(run.tally(event).calls, event).toBeGreaterThanOrEqual(PER_EVENT);
			// Not vacuous: the nudge is reached, by every control and by generated Stops.
			expect(run.controls).toBeGreaterThan(0);
			expect(run.controlBlocks, text).toBe(run.controls);
			expect(run.tally("Stop").blocks, text).toBeGreaterThan(run.controlBlocks);
			for (const hostile of world.fixtures.hostile) {
				expect(run.hostileAtStop.get(hostile.kind), hostile.kind).toBeGreaterThan(0);
			}
			for (const label of ["real payload", "mutated payload", "random JSON", "random bytes", "failing stdin"]) {
				expect(run.labels.get(label)?.n ?? 0, label).toBeGreaterThan(0);
			}
		},
		FULL ? 8 * 60 * 60 * 1000 : 180_000,
	);
});

/**
 * Found by this fuzzer: `runClaudeCodeHook` promises never to reject, but two
 * writes once sat outside its guards. Kept as plain cases beside the fuzzer's
 * own streams that throw.
 */
describe("a stream that throws", () => {
	async function runWith(input: string, folder: string, failing: "stdout" | "stderr"): Promise<void> {
		const fail = () => {
			throw new Error(`EPIPE: ${failing} is gone`);
		};
		await runClaudeCodeHook(["Stop"], {
			stdin: [Buffer.from(input)],
			stdout: { write: failing === "stdout" ? fail : () => true },
			stderr: { write: failing === "stderr" ? fail : () => true },
			env: { ...world.env, CLAUDE_PROJECT_DIR: folder },
			cwd: folder,
		});
	}

	it("does not reject when stderr throws while telling of input that is not JSON, in a folder with no state", async () => {
		const places = await world.places();
		const escaped = await runWith("not json", places.outside, "stderr").then(
			() => null,
			(error: unknown) => error,
		);
		expect(escaped).toBeNull();
	});

	it("does not reject when stdout throws while telling of a bad config", async () => {
		const places = await world.places();
		const input = JSON.stringify({ session_id: GOOD_IDS[0], hook_event_name: "Stop", cwd: places.badConfig });
		const escaped = await runWith(input, places.badConfig, "stdout").then(
			() => null,
			(error: unknown) => error,
		);
		expect(escaped).toBeNull();
	});
});
