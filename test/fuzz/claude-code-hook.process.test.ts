/**
 * The installed hook command under generated input: `node
 * dist/hook/claude-code.cjs <Event>`, a process per input as Claude Code runs
 * it, fed the in-process fuzzer's inputs on stdin (a FIFO or a device as the
 * transcript included). Every process must exit 0 on its own within a
 * generous bound, print nothing or one JSON object Claude Code reads, and
 * block only where the in-process fuzzer may.
 *
 * Lanes run side by side, each in worktrees of its own, so one lane's calls
 * never change the state another lane's answers are judged against.
 */
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../src/adapters/claude-code/events.js";
import { caseArb, type HookCase, HUGE_KINDS, type Places, stdinBytes } from "./claude-code-inputs.js";
import { FuzzRun, FuzzWorld, type Outcome } from "./claude-code-run.js";
import { FULL, Hang, SEED, scaled } from "./scale.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const BUNDLE = path.join(REPO, "dist/hook/claude-code.cjs");
const MAIN = path.join(REPO, "dist/hook/claude-code-main.cjs");

const PROCESSES = scaled(16, 1_000);
const LANES = 4;
/** Far beyond a hook's start-up and work, far below its own watchdog (minutes): only a hang reaches it. */
const PROCESS_BOUND_MS = 30_000;
/** The transcripts most likely to hang or mislead a process: each at a Stop, then a real one as the control. */
const SWEPT = new Set(["fifo", "link to a fifo", "/dev/zero", "/dev/stdin", "folder", "random bytes", "missing"]);

let world: FuzzWorld;

/** The bundle is built from the sources by `npm run build` (which `npm test` runs first); an older one tests old code. */
async function assertBundleFresh(): Promise<void> {
	if (!existsSync(BUNDLE) || !existsSync(MAIN)) throw new Error("dist/hook is missing: run `npm run build` first.");
	const built = statSync(MAIN).mtimeMs;
	for (const folder of ["src/adapters/claude-code", "src/engine", "src/state", "src/core"]) {
		for (const name of await readdir(path.join(REPO, folder), { recursive: true })) {
			const file = path.join(REPO, folder, String(name));
			if (file.endsWith(".ts") && statSync(file).mtimeMs > built) {
				throw new Error(`${path.relative(REPO, file)} is newer than dist/hook: run \`npm run build\` first.`);
			}
		}
	}
}

beforeAll(async () => {
	await assertBundleFresh();
	world = await FuzzWorld.create("boulder-fuzz-ccp-");
}, 60_000);

afterAll(async () => {
	await world?.close();
});

/** One hook process: stdin written and closed, stdout kept, killed only past the bound. */
function asProcess(kase: HookCase, places: Places): Promise<Outcome> {
	const started = performance.now();
	const child = spawn(process.execPath, [BUNDLE, ...(kase.event === undefined ? [] : [kase.event])], {
		cwd: kase.processCwd,
		env: kase.projectDir === undefined ? world.env : { ...world.env, CLAUDE_PROJECT_DIR: kase.projectDir },
		stdio: ["pipe", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		stdout += chunk;
	});
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	// A hook may stop reading once its input is too large: the rest of the pipe is its to refuse.
	child.stdin.on("error", () => undefined);
	child.stdin.end(stdinBytes(kase.stdin, kase.event ?? "Stop", places));
	return new Promise((resolve) => {
		let hung = false;
		const timer = setTimeout(() => {
			hung = true;
			child.kill("SIGKILL");
		}, PROCESS_BOUND_MS);
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			const ms = performance.now() - started;
			let error: unknown = null;
			if (hung) error = new Hang(`the ${kase.event} hook process`, PROCESS_BOUND_MS);
			else if (code !== 0) error = new Error(`exited with ${signal ?? code}: ${stderr.slice(0, 300)}`);
			resolve({ stdout, ms, error });
		});
	});
}

async function lane(run: FuzzRun, index: number, count: number): Promise<void> {
	const places = await world.places();
	// Small runs spread a FIFO, /dev/zero and two huge inputs over the lanes; full runs give every lane all of them.
	const mine = (kind: string) => FULL || (index === 0 && kind === "fifo") || (index === 1 && kind === "/dev/zero");
	if (FULL || index < 2) await run.sweep(places, (kind) => SWEPT.has(kind) && mine(kind));
	const small: Record<string, number> = { "over-limit": 2, "deep-array": 3 };
	for (const [k, kind] of HUGE_KINDS.entries()) {
		if (FULL ? k % LANES !== index : small[kind] !== index) continue;
		const event = HOOK_EVENTS[k % HOOK_EVENTS.length] as string;
		await run.check(
			{
				event,
				stdin: { kind: "huge", huge: kind },
				projectDir: places.good,
				processCwd: places.good,
				streams: "ok",
				label: `huge: ${kind}`,
			},
			places,
		);
	}
	const arbs = HOOK_EVENTS.map((event) => caseArb(event, places, { hostileStreams: false }));
	for (let n = 0; n < count && !run.full; n++) {
		const arb = arbs[(index + n) % arbs.length] as fc.Arbitrary<HookCase>;
		const [kase] = fc.sample(arb, { seed: SEED + index * 1_000_003 + n, numRuns: 1 });
		await run.check({ ...(kase as HookCase), label: `process: ${(kase as HookCase).label}` }, places);
	}
}

describe("the installed Claude Code hook command under generated input", () => {
	it(
		`runs ${PROCESSES} hook processes that each exit 0 in time and block only a Stop that may be continued`,
		async () => {
			const run = new FuzzRun(world, asProcess);
			const per = Math.ceil(PROCESSES / LANES);
			await Promise.all(Array.from({ length: LANES }, (_, index) => lane(run, index, per)));
			const text = run.report();
			console.log(text);

			expect(run.findings, text).toEqual([]);
			const generated = [...run.labels].filter(([label]) => label.startsWith("process: "));
			expect(generated.reduce((sum, [, { n }]) => sum + n, 0)).toBeGreaterThanOrEqual(PROCESSES);
			// Not vacuous: the processes reach the nudge where they should.
			expect(run.controls).toBeGreaterThan(0);
			expect(run.controlBlocks, text).toBe(run.controls);
			expect(run.hostileAtStop.get("fifo")).toBeGreaterThan(0);
		},
		FULL ? 2 * 60 * 60 * 1000 : 180_000,
	);
});
