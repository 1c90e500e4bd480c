/**
 * Where a fresh boulder process spends its start-up: V8 CPU profiles
 * (`node --cpu-prof`) of the Claude Code Stop and PreToolUse hooks on the
 * path `hook-latency.mjs` times (a started plan with open items, the state
 * already there: `fixtures/plan-session.mjs`), of the Stop on a todo list
 * (`fixtures/hook-session.mjs`), and of `boulder --version`, `status` and
 * `why`, summed over several runs and grouped by what the time went to: a
 * source module of boulder, a package, Node's module loader, the compiler,
 * the garbage collector.
 *
 * The hook is profiled as a readable bundle (the same bundle, unminified, each
 * module's code marked with its source file; `tsdown.config.ts`), through its
 * loader with the code cache written by a first run, as a user's hooks run;
 * the CLI as it ships.
 *
 * Run: `npm run build && node bench/profile-startup.mjs [runs]` (default 10).
 * Writes `bench/results/profile-startup.md`; BENCH_KEEP=1 keeps the raw
 * `.cpuprofile` files (open them in Chrome's DevTools) and prints where.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createHookSession } from "./fixtures/hook-session.mjs";
import { createPlanSession } from "./fixtures/plan-session.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const loader = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
const cli = path.join(repoRoot, "bin", "boulder.js");
if (!existsSync(loader)) {
	console.error("dist/ is missing: run `npm run build` first.");
	process.exit(1);
}
const RUNS = Math.max(1, Number(process.argv[2]) || 10);
const TOP = 25;

const root = mkdtempSync(path.join(os.tmpdir(), "boulder-profile-startup-"));
try {
	const readable = path.join(root, "readable");
	const build = spawnSync("npx", ["tsdown", "--log-level", "warn"], {
		cwd: repoRoot,
		env: { ...process.env, BOULDER_READABLE_BUNDLE: readable },
		stdio: ["ignore", "inherit", "inherit"],
	});
	if (build.status !== 0) throw new Error("building the readable bundle failed");
	const readableMain = path.join(readable, "claude-code-main.cjs");
	const readableLoader = path.join(readable, "claude-code.cjs");
	const regions = regionsOf(readFileSync(readableMain, "utf8"));

	const session = createHookSession(path.join(root, "session"), loader);
	const plan = createPlanSession(path.join(root, "plan"), repoRoot);
	const subjects = [
		{
			name: "Claude Code Stop hook continuing a plan (readable bundle, warm code cache)",
			args: [readableLoader, "Stop"],
			input: plan.stopInput,
			before: plan.restore,
			env: plan.env,
			cwd: plan.project,
		},
		{
			name: "Claude Code PreToolUse hook on a plan (readable bundle, warm code cache)",
			args: [readableLoader, "PreToolUse"],
			input: plan.preToolInput,
			before: plan.restore,
			env: plan.env,
			cwd: plan.project,
		},
		{
			name: "Claude Code Stop hook on a todo list (readable bundle, warm code cache)",
			args: [readableLoader, "Stop"],
			input: session.stopInput,
			before: session.restore,
		},
		{ name: "boulder --version", args: [cli, "--version"] },
		{ name: "boulder status", args: [cli, "status"] },
		{ name: "boulder why", args: [cli, "why"] },
		{ name: "node -e 0 (baseline)", args: ["-e", "0"] },
	];
	const sections = [];
	for (const subject of subjects) {
		const dir = path.join(root, "profiles", slug(subject.name));
		mkdirSync(dir, { recursive: true });
		for (let run = -1; run < RUNS; run++) {
			subject.before?.();
			const child = spawnSync(
				process.execPath,
				// The first run is a warm-up (it writes the hook's code cache) and is not profiled.
				[...(run < 0 ? [] : ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "100"]), ...subject.args],
				{
					input: subject.input ?? "",
					env: subject.env ?? session.env,
					cwd: subject.cwd ?? session.project,
					encoding: "utf8",
				},
			);
			if (child.status !== 0) throw new Error(`${subject.name} exited ${child.status}: ${child.stderr}`);
		}
		const groups = new Map();
		let total = 0;
		for (const file of readdirSync(dir)) {
			const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
			total += addSelfTimes(profile, groups, (frame) => groupOf(frame, readableMain, regions));
		}
		sections.push(section(subject.name, groups, total / RUNS));
		console.log(`${subject.name}: ${(total / RUNS / 1000).toFixed(1)} ms sampled per run`);
	}
	const phases = phaseSection(root, plan);
	const text = [
		"# Start-up profile",
		"",
		`\`node bench/profile-startup.mjs ${RUNS}\`, ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load ${os
			.loadavg()
			.map((load) => load.toFixed(2))
			.join(" ")}.`,
		"",
		...phases,
		`Self time per group, mean of ${RUNS} runs of \`node --cpu-prof\` (sampled every 0.1 ms; a loaded machine stretches every line alike).`,
		"",
		...sections,
	].join("\n");
	const out = path.join(here, "results", "profile-startup.md");
	mkdirSync(path.dirname(out), { recursive: true });
	writeFileSync(out, `${text}\n`);
	console.log(`Written to ${path.relative(process.cwd(), out)}`);
} finally {
	if (process.env.BENCH_KEEP === "1") console.error(`profiles kept in ${path.join(root, "profiles")}`);
	else rmSync(root, { recursive: true, force: true });
}

/**
 * Where the CPU time of the shipped hook goes, phase by phase: the shipped
 * bundle and loader (not the readable build), run as the portable command
 * runs them, with a preloaded file that reads the process's CPU time
 * (`process.cpuUsage()`, every thread) and the clock when node has started,
 * around the code cache's compile and the bundle's evaluation, and at exit.
 * Beside it, `node -e 0` with the same preload: node's own start.
 */
function phaseSection(root, plan) {
	const marks = path.join(root, "phase-marks.cjs");
	writeFileSync(
		marks,
		`const vm = require("node:vm");
const seen = [];
const mark = (name) => { const { user, system } = process.cpuUsage(); seen.push([name, (user + system) / 1000, performance.now()]); };
mark("start");
const Script = vm.Script;
vm.Script = function (...args) {
	mark("read");
	const script = new Script(...args);
	mark("compile");
	const run = script.runInThisContext.bind(script);
	script.runInThisContext = (...more) => { const body = run(...more); return (...call) => { const out = body(...call); mark("evaluate"); return out; }; };
	return script;
};
process.on("exit", () => { mark("exit"); process.stderr.write("\\n" + JSON.stringify(seen)); });
`,
	);
	const subjects = [
		{
			name: "Stop, binding the work (once per work)",
			args: [loader, "Stop", "--boulder-hook=portable"],
			input: plan.stopInput,
		},
		{
			name: "Stop, session already bound",
			args: [loader, "Stop", "--boulder-hook=portable"],
			input: plan.stopInput,
			bound: true,
		},
		{
			name: "PreToolUse, binding the work (once per work)",
			args: [loader, "PreToolUse", "--boulder-hook=portable"],
			input: plan.preToolInput,
		},
		{
			name: "PreToolUse, an edit within a stretch",
			args: [loader, "PreToolUse", "--boulder-hook=portable"],
			input: plan.preToolInput,
			editing: true,
		},
		{ name: "node -e 0", args: ["-e", "0"], input: "" },
	];
	const names = ["start", "read", "compile", "evaluate", "exit"];
	const rows = [];
	for (const subject of subjects) {
		const sums = new Map();
		let counted = 0;
		for (let run = -1; run < RUNS; run++) {
			if (subject.editing) plan.restoreEditing();
			else if (subject.bound) plan.restoreBound();
			else plan.restore();
			const child = spawnSync(process.execPath, ["-r", marks, ...subject.args], {
				input: subject.input,
				env: plan.env,
				cwd: plan.project,
				encoding: "utf8",
			});
			if (child.status !== 0) throw new Error(`${subject.name} exited ${child.status}: ${child.stderr}`);
			if (run < 0) continue;
			const seen = new Map(
				JSON.parse(child.stderr.trim().split("\n").at(-1)).map(([name, cpu, wall]) => [name, { cpu, wall }]),
			);
			counted++;
			let before = { cpu: 0, wall: 0 };
			for (const name of names) {
				const at = seen.get(name);
				if (!at) continue;
				const sum = sums.get(name) ?? { cpu: 0, wall: 0 };
				sum.cpu += at.cpu - before.cpu;
				sum.wall += at.wall - before.wall;
				sums.set(name, sum);
				before = at;
			}
		}
		const cell = (name) => {
			const sum = sums.get(name);
			return sum ? `${(sum.cpu / counted).toFixed(1)} (${(sum.wall / counted).toFixed(1)})` : "";
		};
		const total = [...sums.values()].reduce((a, b) => ({ cpu: a.cpu + b.cpu, wall: a.wall + b.wall }));
		rows.push(
			`| ${subject.name} | ${names.map(cell).join(" | ")} | ${(total.cpu / counted).toFixed(1)} (${(total.wall / counted).toFixed(1)}) |`,
		);
	}
	return [
		"## Phases of the shipped hook (CPU ms, and wall ms in brackets)",
		"",
		`Mean of ${RUNS} runs each: the shipped loader as the portable command runs it, on the session of \`fixtures/plan-session.mjs\`. CPU is the process's (every thread) from \`process.cpuUsage()\`; *run* ends at the \`exit\` event, before node tears down (for \`node -e 0\`, it is node running \`-e 0\`). *node start*: until the loader's first line; *read*: the loader reads the bundle and its code cache; *compile*: V8 takes the bundle from the cache; *evaluate*: the bundle's modules run their top level (zod's own module and a stand-in for each schema, which is built on first use); *run*: the hook's work, to exit (file reads and writes with their fsyncs, the decision).`,
		"",
		"| hook | node start | read | compile | evaluate | run | total |",
		"|---|---:|---:|---:|---:|---:|---:|",
		...rows,
		"",
	];
}

/** Adds each sample's time to its frame's group; returns the profile's total in µs. */
function addSelfTimes(profile, groups, groupOfFrame) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	let total = 0;
	for (const [index, id] of profile.samples.entries()) {
		const delta = profile.timeDeltas[index] ?? 0;
		const group = groupOfFrame(byId.get(id).callFrame);
		groups.set(group, (groups.get(group) ?? 0) + delta);
		total += delta;
	}
	return total;
}

/** What a frame's time counts as. */
function groupOf(frame, readableMain, regions) {
	const { url, functionName } = frame;
	if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
	if (url.startsWith("node:")) {
		if (url.includes("/modules/")) return "node: module loading";
		return `node: ${url.replace(/^node:(internal\/)?/, "").split("/")[0]}`;
	}
	const file = url.startsWith("file://") ? fileURLToPath(url) : url;
	if (file === readableMain) return `bundle: ${regionAt(regions, frame.lineNumber)}`;
	// The readable build's other files (the loader): named without the folder it was built in.
	if (path.dirname(file) === path.dirname(readableMain)) return `readable build: ${path.basename(file)}`;
	const inModules = file.lastIndexOf(`node_modules${path.sep}`);
	if (inModules >= 0) {
		const [scope, name] = file.slice(inModules + 13).split(path.sep);
		return `package: ${scope.startsWith("@") ? `${scope}/${name}` : scope}`;
	}
	return path.relative(repoRoot, file);
}

/** The `//#region <source>` marks of a readable bundle, by starting line (0-based, as profiles count). */
function regionsOf(text) {
	const regions = [];
	for (const [index, line] of text.split("\n").entries()) {
		if (line.startsWith("//#region ")) regions.push({ line: index, name: sourceName(line.slice(10)) });
	}
	return regions;
}

function regionAt(regions, line) {
	let name = "(bundle glue)";
	for (const region of regions) {
		if (region.line > line) break;
		name = region.name;
	}
	return name;
}

function sourceName(name) {
	const inModules = name.lastIndexOf("node_modules/");
	if (inModules < 0) return name;
	const [scope, pkg] = name.slice(inModules + 13).split("/");
	return `package ${scope.startsWith("@") ? `${scope}/${pkg}` : scope}`;
}

function section(name, groups, perRunUs) {
	const rows = [...groups.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP);
	const runs = RUNS;
	return [
		`## ${name}`,
		"",
		`${(perRunUs / 1000).toFixed(1)} ms sampled per run.`,
		"",
		"| ms per run | share | group |",
		"|---:|---:|---|",
		...rows.map(
			([group, us]) =>
				`| ${(us / runs / 1000).toFixed(2)} | ${((100 * us) / runs / perRunUs).toFixed(1)} % | ${group.replaceAll("|", "\\|")} |`,
		),
		"",
	].join("\n");
}

function slug(name) {
	return name.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
}
