/**
 * What hostile or oversized input costs boulder: time and peak RSS of the
 * real programs (the bundled hooks, the CLI, the dashboard) on the inputs a
 * hostile-input audit used, each one a fresh process, measured by
 * `/usr/bin/time` and killed after `--timeout` seconds (60 by default).
 *
 * Cases:
 * - `copilot-session-db`: Copilot's `agentStop` on a crafted 512 KB
 *   `session.db` whose leaf page names one big cell 2,000 times;
 * - `claude-one-message`: Claude Code's Stop on a turn of one message id
 *   spread over 10,000 lines (20 MB), the hook's `last_assistant_message`
 *   not matching (the turn is read again while it does not);
 * - `claude-60mb-line`: Claude Code's Stop on a turn holding one 60 MB line;
 * - `plan-100k-items`: Claude Code's Stop on a work whose plan has 100,000 open items;
 * - `todos-200k`: Claude Code's PostToolUse of a TodoWrite of 200,000 todos;
 * - `plan-huge-title`: Claude Code's Stop on a plan whose open item's title
 *   is 3.9 MB long (the size of the hook's answer is reported too);
 * - `why-2gb-log`: `boulder why` on a 2 GB sparse (newline-free) decision log;
 * - `ui-action-400mb`: a `POST /api/action` with the token and a 400 MB
 *   body, streamed, to a dashboard started in the measured process.
 *
 * Run after `npm run build`: `node bench/bad-input.mjs [--timeout 60] [--label after] [case…]`.
 * Writes `bench/results/bad-input.json` and `bench/results/bad-input.md`
 * (merging with the figures of other labels already there, such as the
 * `before` run on the code before the fix). Timings are reported, never asserted.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
	closeSync,
	existsSync,
	ftruncateSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const claudeHook = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
const anyHook = path.join(repoRoot, "dist", "hook", "boulder-hook.cjs");
const cli = path.join(repoRoot, "bin", "boulder.js");
const uiServer = path.join(repoRoot, "dist", "ui", "server.js");
for (const file of [claudeHook, anyHook, uiServer]) {
	if (!existsSync(file)) {
		console.error(`${path.relative(repoRoot, file)} is missing: run \`npm run build\` first.`);
		process.exit(1);
	}
}
if (!existsSync("/usr/bin/time")) {
	console.error("bench/bad-input.mjs measures with /usr/bin/time (GNU time), which is missing.");
	process.exit(1);
}

const args = process.argv.slice(2);
const option = (name, fallback) => {
	const at = args.indexOf(name);
	if (at === -1) return fallback;
	const value = args[at + 1];
	args.splice(at, 2);
	return value;
};
const TIMEOUT_S = Number(option("--timeout", "60"));
const LABEL = option("--label", "after");
const OUT = path.resolve(option("--out", path.join(here, "results")));
const only = new Set(args);

const MB = 1024 * 1024;
const SESSION = "5d0c8a5e-bench-4c1b-9a51-badinput0001";
const root = mkdtempSync(path.join(os.tmpdir(), "boulder-bad-input-"));

/** A fresh project with a git marker and its own homes; `env` for the hook and the CLI. */
function project(name) {
	const dir = path.join(root, name);
	const folder = path.join(dir, "project");
	mkdirSync(path.join(folder, ".git"), { recursive: true });
	const env = {
		PATH: process.env.PATH,
		HOME: path.join(dir, "home"),
		XDG_CONFIG_HOME: path.join(dir, "config"),
		XDG_CACHE_HOME: path.join(dir, "cache"),
		XDG_DATA_HOME: path.join(dir, "data"),
		BOULDER_STATE_HOME: path.join(dir, "state"),
		CLAUDE_PROJECT_DIR: folder,
		COPILOT_PROJECT_DIR: folder,
		NO_COLOR: "1",
	};
	return { dir, folder, env };
}

/** Runs `command args` under /usr/bin/time with the timeout; seconds, peak RSS in MB, exit code, stdout size. */
function measure(command, commandArgs, { env, cwd, input }) {
	if (process.env.BENCH_KEEP)
		writeFileSync(path.join(cwd, "..", "measured.json"), JSON.stringify({ command, commandArgs, input }));
	const stdoutFile = path.join(root, `stdout-${process.hrtime.bigint()}`);
	const timeFile = `${stdoutFile}.time`;
	const out = openSync(stdoutFile, "w");
	const result = spawnSync(
		"/usr/bin/time",
		[
			"-o",
			timeFile,
			"-f",
			"%e %M %x",
			"timeout",
			"--foreground",
			"-s",
			"KILL",
			String(TIMEOUT_S),
			command,
			...commandArgs,
		],
		{ env, cwd, input, stdio: [input === undefined ? "ignore" : "pipe", out, "pipe"], maxBuffer: 64 * MB },
	);
	closeSync(out);
	const [seconds, kb, exit] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-3).map(Number);
	const stdout = readFileSync(stdoutFile);
	rmSync(stdoutFile, { force: true });
	const killed = exit === 137 || seconds >= TIMEOUT_S;
	return {
		seconds,
		peakRssMb: Math.round(kb / 1024),
		exit,
		killed,
		stdoutBytes: stdout.length,
		stdout: stdout.subarray(0, 400).toString("utf8"),
		stderr: result.stderr.toString("utf8").slice(-400),
	};
}

function hook(bundle, hookArgs, p, input) {
	return measure(process.execPath, [bundle, ...hookArgs], { env: p.env, cwd: p.folder, input });
}

/** Runs a hook for its side effects (the state a measured run starts from). */
function prepare(bundle, hookArgs, p, input) {
	execFileSync(process.execPath, [bundle, ...hookArgs], { env: p.env, cwd: p.folder, input, maxBuffer: 64 * MB });
}

function boulder(p, cliArgs) {
	execFileSync(process.execPath, [cli, ...cliArgs], { env: p.env, cwd: p.folder, stdio: "pipe", maxBuffer: 256 * MB });
}

// ---- Claude Code transcripts -------------------------------------------------------------------

let uuid = 0;
function claudeLine(p, fields) {
	const id = `00000000-0000-4000-8000-${String(uuid++).padStart(12, "0")}`;
	return JSON.stringify({
		parentUuid: null,
		isSidechain: false,
		...fields,
		uuid: id,
		timestamp: new Date(Date.UTC(2026, 10, 30, 9, 0, 0)).toISOString(),
		sessionId: SESSION,
		cwd: p.folder,
	});
}
const prompt = (p, text) => claudeLine(p, { type: "user", message: { role: "user", content: text } });
const assistant = (p, id, content) =>
	claudeLine(p, {
		type: "assistant",
		message: { id, type: "message", role: "assistant", content, usage: { input_tokens: 10, output_tokens: 5 } },
	});

/** A Claude Code session in `p` with the user's prompt seen; returns the Stop input for `transcript`. */
function claudeSession(p, transcript, lastMessage) {
	const base = { session_id: SESSION, transcript_path: transcript, cwd: p.folder };
	prepare(
		claudeHook,
		["UserPromptSubmit"],
		p,
		JSON.stringify({ ...base, hook_event_name: "UserPromptSubmit", prompt: "Go on." }),
	);
	return JSON.stringify({
		...base,
		hook_event_name: "Stop",
		stop_hook_active: false,
		last_assistant_message: lastMessage,
	});
}

function withTodos(p, transcript, count) {
	const todos = Array.from({ length: count }, (_, index) => ({
		content: `Item ${index + 1}`,
		status: index === 0 ? "in_progress" : "pending",
		activeForm: `Working on item ${index + 1}`,
	}));
	const input = {
		session_id: SESSION,
		transcript_path: transcript,
		cwd: p.folder,
		hook_event_name: "PostToolUse",
		tool_name: "TodoWrite",
		tool_input: { todos },
		tool_response: { newTodos: [] },
	};
	return JSON.stringify(input);
}

function writeLines(file, lines) {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${lines.join("\n")}\n`);
}

const SMALL_PLAN = "# Plan\n\n- [x] First\n- [ ] Second\n";

/** A plan started in `p` (`boulder start`), the session's prompt seen; returns the Stop input. */
function planSession(p, planText, lines = null, lastMessage = "Done a part.") {
	// Started on a small plan that then grows (`boulder start` may refuse the big one outright).
	writeFileSync(path.join(p.folder, "plan.md"), SMALL_PLAN);
	boulder(p, ["start", "plan.md"]);
	writeFileSync(path.join(p.folder, "plan.md"), planText);
	const transcript = path.join(p.dir, "t.jsonl");
	// The prompt is seen on a short transcript; the measured Stop reads the whole one.
	writeLines(transcript, [prompt(p, "Go on.")]);
	const input = claudeSession(p, transcript, lastMessage);
	writeLines(transcript, lines ?? [prompt(p, "Go on."), assistant(p, "m1", [{ type: "text", text: lastMessage }])]);
	return input;
}

// ---- Copilot's crafted session database ------------------------------------------------------------

function sqliteVarint(value) {
	const bytes = [];
	let rest = value;
	do {
		bytes.unshift(rest & 0x7f);
		rest = Math.floor(rest / 128);
	} while (rest > 0);
	for (let index = 0; index < bytes.length - 1; index++) bytes[index] |= 0x80;
	return bytes;
}

function sqliteRecord(values) {
	const types = values.map((value) => (typeof value === "number" ? 1 : 13 + 2 * Buffer.byteLength(value)));
	const typeBytes = types.flatMap(sqliteVarint);
	let headerSize = typeBytes.length + 1;
	if (sqliteVarint(headerSize).length > 1) headerSize++;
	const body = values.map((value) => (typeof value === "number" ? Buffer.from([value]) : Buffer.from(value)));
	return Buffer.concat([Buffer.from([...sqliteVarint(headerSize), ...typeBytes]), ...body]);
}

/**
 * 8 pages of 64 KiB: the schema, a leaf whose `cells` pointers all name one
 * cell, and that cell's title running on through the 6 overflow pages (~417 KB).
 */
export function craftedSessionDb(cells) {
	const PAGE = 65536;
	const bytes = Buffer.alloc(PAGE * 8);
	bytes.write("SQLite format 3\u0000", 0, "latin1");
	bytes.writeUInt16BE(1, 16);
	bytes[18] = 1;
	bytes[19] = 1;
	bytes[21] = 64;
	bytes[22] = 32;
	bytes[23] = 32;
	bytes.writeUInt32BE(8, 28);
	bytes.writeUInt32BE(1, 56);
	const schema = sqliteRecord(["table", "todos", "todos", 2, "CREATE TABLE todos (id TEXT, title TEXT, status TEXT)"]);
	const schemaCell = Buffer.concat([Buffer.from([...sqliteVarint(schema.length), 1]), schema]);
	const schemaAt = PAGE - schemaCell.length;
	schemaCell.copy(bytes, schemaAt);
	bytes[100] = 0x0d;
	bytes.writeUInt16BE(1, 103);
	bytes.writeUInt16BE(schemaAt, 105);
	bytes.writeUInt16BE(schemaAt, 108);
	// SQLite's local size for a payload P on a 64 KiB page: min + (P - min) % (usable - 4).
	const usable = PAGE;
	const min = Math.floor(((usable - 12) * 32) / 255) - 23;
	const payload = min + 6 * (usable - 4) + 16000;
	const local = min + ((payload - min) % (usable - 4));
	const title = "t".repeat(payload - 14); // header 6 bytes (size, 3 types; the title's takes 3), "x", "pending"
	const record = sqliteRecord(["x", title, "pending"]);
	if (record.length !== payload) throw new Error(`crafted record is ${record.length}, not ${payload}`);
	const cell = Buffer.concat([
		Buffer.from([...sqliteVarint(payload), 1]),
		record.subarray(0, local),
		Buffer.from([0, 0, 0, 3]),
	]);
	const page2 = PAGE;
	const cellAt = PAGE - cell.length;
	if (8 + cells * 2 > cellAt) throw new Error("too many cell pointers for the page");
	cell.copy(bytes, page2 + cellAt);
	bytes[page2] = 0x0d;
	bytes.writeUInt16BE(cells, page2 + 3);
	bytes.writeUInt16BE(cellAt, page2 + 5);
	for (let index = 0; index < cells; index++) bytes.writeUInt16BE(cellAt, page2 + 8 + index * 2);
	let from = local;
	for (let page = 3; page <= 8; page++) {
		const at = (page - 1) * PAGE;
		bytes.writeUInt32BE(page === 8 ? 0 : page + 1, at);
		from += record.copy(bytes, at + 4, from, Math.min(record.length, from + usable - 4));
	}
	return bytes;
}

// ---- the cases -------------------------------------------------------------------------------------

const cases = {
	"copilot-session-db"() {
		const p = project("copilot");
		const sessionDir = path.join(p.dir, "copilot-home", "session-state", SESSION);
		const log = path.join(sessionDir, "events.jsonl");
		let id = 0;
		const line = (type, data) => JSON.stringify({ type, data, id: `e${++id}`, timestamp: new Date(0).toISOString() });
		writeLines(log, [
			line("user.message", { content: "Work through the list.", delivery: "idle" }),
			line("assistant.turn_start", { turnId: "0" }),
			line("assistant.message", { content: "I made a start.", toolRequests: [] }),
			line("assistant.turn_end", { turnId: "0" }),
		]);
		writeFileSync(path.join(sessionDir, "session.db"), craftedSessionDb(2000));
		const base = { sessionId: SESSION, timestamp: Date.now(), cwd: p.folder };
		prepare(
			anyHook,
			["copilot", "userPromptSubmitted"],
			p,
			JSON.stringify({ ...base, prompt: "Work through the list." }),
		);
		const input = JSON.stringify({ ...base, transcriptPath: log, stopReason: "end_turn" });
		return {
			input: "512 KB session.db, 2,000 pointers to one ~417 KB cell",
			...hook(anyHook, ["copilot", "agentStop"], p, input),
		};
	},
	"claude-one-message"() {
		const p = project("one-message");
		const lines = [prompt(p, "Go on.")];
		const text = "word ".repeat(400);
		for (let index = 0; index < 10_000; index++) lines.push(assistant(p, "msg_one", [{ type: "text", text }]));
		const input = planSession(p, SMALL_PLAN, lines, "a reply the file does not end with");
		return {
			input: "one message id over 10,000 lines (20 MB), last_assistant_message not matching",
			...hook(claudeHook, ["Stop"], p, input),
		};
	},
	"claude-60mb-line"() {
		const p = project("big-line");
		const big = "x".repeat(60 * MB);
		const lines = [
			prompt(p, "Go on."),
			assistant(p, "m1", [{ type: "tool_use", id: "tu1", name: "Bash", input: { command: "cat big" } }]),
			claudeLine(p, {
				type: "user",
				message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu1", content: big }] },
			}),
			assistant(p, "m2", [{ type: "text", text: "Read it." }]),
		];
		const input = planSession(p, SMALL_PLAN, lines, "Read it, and more the file does not hold yet.");
		return {
			input: "a turn holding one 60 MB tool-result line, last_assistant_message not matching",
			...hook(claudeHook, ["Stop"], p, input),
		};
	},
	"plan-100k-items"() {
		const p = project("plan-100k");
		const items = Array.from({ length: 100_000 }, (_, index) => `- [ ] Item ${index + 1}`);
		const input = planSession(p, `# Big plan\n\n${items.join("\n")}\n`);
		return { input: "a plan of 100,000 open items", ...hook(claudeHook, ["Stop"], p, input) };
	},
	"todos-200k"() {
		const p = project("todos-200k");
		const transcript = path.join(p.dir, "t.jsonl");
		writeLines(transcript, [prompt(p, "Go on.")]);
		claudeSession(p, transcript, "");
		const input = withTodos(p, transcript, 200_000);
		return {
			input: `a TodoWrite of 200,000 todos (${(input.length / MB).toFixed(1)} MB of hook input)`,
			...hook(claudeHook, ["PostToolUse"], p, input),
		};
	},
	"plan-huge-title"() {
		const p = project("huge-title");
		const title = `Item ${"long ".repeat((3.9 * MB) / 5)}`;
		const input = planSession(p, `# Plan\n\n- [x] First\n- [ ] ${title}\n`);
		return { input: "a plan item whose title is 3.9 MB", ...hook(claudeHook, ["Stop"], p, input) };
	},
	"why-2gb-log"() {
		const p = project("why-log");
		writeFileSync(path.join(p.folder, "plan.md"), "# Plan\n\n- [ ] One\n");
		boulder(p, ["start", "plan.md"]);
		const log = path.join(p.folder, ".boulder", "decisions.jsonl");
		const fd = openSync(log, "w");
		ftruncateSync(fd, 2 * 1024 * MB);
		writeSync(fd, "x", 2 * 1024 * MB - 1);
		closeSync(fd);
		return {
			input: "a 2 GB sparse decision log without a newline",
			...measure(process.execPath, [cli, "why"], { env: p.env, cwd: p.folder }),
		};
	},
	"ui-action-400mb"() {
		const p = project("ui");
		const child = path.join(p.dir, "ui-post.mjs");
		writeFileSync(
			child,
			`import { startDashboard } from ${JSON.stringify(uiServer)};
const dashboard = await startDashboard({ env: process.env, clock: { now: () => Date.now() } });
const chunk = new Uint8Array(1024 * 1024).fill(32);
let sent = 0;
const body = new ReadableStream({ pull(controller) { if (sent++ >= 400) controller.close(); else controller.enqueue(chunk); } });
const origin = "http://127.0.0.1:" + dashboard.port;
let status = "failed";
try {
	const response = await fetch(origin + "/api/action?token=" + dashboard.token, {
		method: "POST", body, duplex: "half",
		headers: { "content-type": "application/json", origin, "x-boulder-token": dashboard.token, authorization: "Bearer " + dashboard.token },
	});
	status = response.status;
} catch (error) { status = "connection closed: " + error.message; }
console.log(JSON.stringify({ status }));
await dashboard.close();
process.exit(0);
`,
		);
		return {
			input: "POST /api/action with the token and a 400 MB body",
			...measure(process.execPath, [child], { env: p.env, cwd: p.folder }),
		};
	},
};

// ---- run, report -----------------------------------------------------------------------------------

const resultsFile = path.join(OUT, "bad-input.json");
const previous = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, "utf8")) : { runs: {} };
const run = {
	label: LABEL,
	node: process.version,
	platform: `${os.type()} ${os.release()}`,
	cpus: os.cpus().length,
	timeoutSeconds: TIMEOUT_S,
	cases: {},
};
try {
	for (const [name, body] of Object.entries(cases)) {
		if (only.size > 0 && !only.has(name)) continue;
		process.stdout.write(`${name} … `);
		const result = body();
		run.cases[name] = result;
		console.log(
			result.killed
				? `killed at ${TIMEOUT_S} s, ${result.peakRssMb} MB`
				: `${result.seconds} s, ${result.peakRssMb} MB, exit ${result.exit}, stdout ${result.stdoutBytes} bytes`,
		);
	}
} finally {
	// BENCH_KEEP=1 keeps the cases' folders (each with the measured command in `measured.json`), to profile one.
	if (process.env.BENCH_KEEP) console.log(`kept ${root}`);
	else rmSync(root, { recursive: true, force: true });
}
const merged = {
	runs: {
		...previous.runs,
		[LABEL]: { ...previous.runs?.[LABEL], ...run, cases: { ...previous.runs?.[LABEL]?.cases, ...run.cases } },
	},
};
mkdirSync(OUT, { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(merged, null, "\t")}\n`);

const labels = Object.keys(merged.runs);
const names = [...new Set(labels.flatMap((label) => Object.keys(merged.runs[label].cases)))];
const cell = (result) =>
	result === undefined
		? "–"
		: result.killed
			? `killed at ${merged.runs[labels[0]].timeoutSeconds} s (${result.peakRssMb} MB)`
			: `${result.seconds} s / ${result.peakRssMb} MB${result.exit === 0 ? "" : ` (exit ${result.exit})`}${result.stdoutBytes > 4096 ? `, answer ${Math.round(result.stdoutBytes / 1024)} KB` : ""}`;
const table = [
	"# Bad input: time and peak RSS",
	"",
	"Each case is a fresh process measured by `/usr/bin/time` (`node bench/bad-input.mjs` after `npm run build`).",
	"",
	`| case | input | ${labels.join(" | ")} |`,
	`|---|---|${labels.map(() => "---|").join("")}`,
	...names.map((name) => {
		const input = labels.map((label) => merged.runs[label].cases[name]?.input).find(Boolean) ?? "";
		return `| ${name} | ${input} | ${labels.map((label) => cell(merged.runs[label].cases[name])).join(" | ")} |`;
	}),
	"",
];
writeFileSync(path.join(OUT, "bad-input.md"), `${table.join("\n")}\n`);
console.log(`wrote ${path.relative(process.cwd(), resultsFile)} and bad-input.md`);
