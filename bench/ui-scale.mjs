/**
 * The dashboard on a big fleet: 100 worktrees, 1,000 works (20 items each),
 * a scope file per live session and large decision logs (a full 1 MB current
 * file and a 1 MB rotated one per worktree). Starts the real `boulder ui`
 * (the built bin) and times, in Debian's headless Chromium:
 *
 * - start-up: from launching `boulder ui` to its printed address (the first
 *   read of the whole fleet included);
 * - first screen: the server draws it into the page (header counts, the
 *   "needs you" list, the first 6 cards and the timeline), so the browser's
 *   first contentful paint is the first screen; then the page's script
 *   takes it over from the view, keeping what is drawn alike (its mark
 *   `first-screen-drawn`), and draws every card (`dashboard-drawn`);
 * - page weight: bytes transferred for the first screen (the page, its style,
 *   its scripts and the view), from the browser's resource timing;
 * - live update: from a real engine call that logs a decision in one worktree
 *   to its line appearing in the page's timeline (seen by a MutationObserver
 *   in the page, compared on the same clock);
 * - an idle look: one look over the whole fleet when nothing changed (stats
 *   only), in-process.
 *
 * Run after `npm run build`: `node bench/ui-scale.mjs`. Writes
 * `bench/results/ui.json`. Timings are reported, never asserted. BENCH_RUNS
 * sets the runs (default 5 page loads, 4 updates per run).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { buildFleet } from "./ui-fleet.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const dist = path.join(repoRoot, "dist");
if (!existsSync(path.join(dist, "ui", "client", "app.js"))) {
	console.error("dist/ is missing: run `npm run build` first.");
	process.exit(1);
}
const CHROMIUM = process.env.BOULDER_CHROMIUM ?? "/usr/bin/chromium";
const WORKTREES = 100;
const WORKS_PER_WORKTREE = 10;
const ITEMS_PER_PLAN = 20;
const LOG_BYTES = 1024 * 1024 - 4096;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5);
const UPDATES_PER_RUN = 4;

const loadAverageAtStart = os.loadavg().map((value) => Math.round(value * 10) / 10);
const root = await mkdtemp(path.join(os.tmpdir(), "boulder-ui-scale-"));
const env = {
	PATH: process.env.PATH,
	HOME: path.join(root, "home"),
	BOULDER_STATE_HOME: path.join(root, "state"),
	XDG_CONFIG_HOME: path.join(root, "config"),
	NO_COLOR: "1",
};
let server = null;
let context = null;
try {
	const names = Array.from({ length: WORKTREES }, (_, w) => `wt-${String(w).padStart(3, "0")}`);
	const roots = await buildFleet({
		dist,
		root: path.join(root, "worktrees"),
		env,
		now: Date.now(),
		names,
		worksPerWorktree: WORKS_PER_WORKTREE,
		itemsPerPlan: ITEMS_PER_PLAN,
		logBytes: LOG_BYTES,
	});

	const { Fleet } = await import(path.join(dist, "engine", "fleet.js"));
	const coldFleet = new Fleet({ env });
	const coldStart = performance.now();
	await coldFleet.look();
	const coldLookMs = performance.now() - coldStart;
	const idle = [];
	for (let n = 0; n < 20; n++) {
		const began = performance.now();
		const change = await coldFleet.look();
		idle.push(performance.now() - began);
		if (change.changed.length > 0) throw new Error("an idle look saw a change; the fixture is moving");
	}

	const began = performance.now();
	server = spawn(process.execPath, [path.join(repoRoot, "bin", "boulder.js"), "ui"], {
		cwd: root,
		env,
		stdio: ["ignore", "pipe", "inherit"],
	});
	const url = await new Promise((resolve, reject) => {
		let out = "";
		server.stdout.on("data", (chunk) => {
			out += chunk;
			const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
			if (found) resolve(found[0]);
		});
		server.once("exit", (code) => reject(new Error(`boulder ui exited ${code}`)));
	});
	const startupMs = performance.now() - began;

	const profile = await mkdtemp(path.join(os.tmpdir(), "boulder-ui-scale-chromium-"));
	context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
		],
		viewport: { width: 1400, height: 1000 },
	});
	const firstPaint = [];
	const allDrawn = [];
	const received = [];
	const drawing = [];
	const contentfulPaint = [];
	const transferred = [];
	const pageArrived = [];
	const latencies = [];
	const { openWorkspace } = await import(path.join(dist, "engine", "open.js"));
	for (let run = 0; run < RUNS; run++) {
		const page = await context.newPage();
		await page.goto(run === 0 ? url : new URL("/", url).href);
		await page.waitForFunction(() => performance.getEntriesByName("dashboard-drawn").length > 0, null, {
			timeout: 60_000,
		});
		const paint = await page.evaluate(() => ({
			received: performance.getEntriesByName("snapshot-received")[0]?.startTime ?? null,
			screen: performance.getEntriesByName("first-screen-drawn")[0]?.startTime ?? null,
			drawn: performance.getEntriesByName("dashboard-drawn")[0]?.startTime ?? null,
			fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
			pageArrived: performance.getEntriesByType("navigation")[0]?.responseEnd ?? null,
		}));
		if (paint.pageArrived !== null) pageArrived.push(paint.pageArrived);
		firstPaint.push(paint.screen);
		allDrawn.push(paint.drawn);
		drawing.push(paint.screen - paint.received);
		received.push(paint.received);
		if (paint.fcp !== null) contentfulPaint.push(paint.fcp);
		transferred.push(
			await page.evaluate(() =>
				[...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
					.filter((entry) => !new URL(entry.name).pathname.startsWith("/api/events"))
					.reduce((sum, entry) => sum + entry.transferSize, 0),
			),
		);
		await page.evaluate(() => {
			window.__seen = {};
			new MutationObserver(() => {
				for (const row of document.querySelectorAll("#timeline-list li")) {
					const match = /bench-(\d+-\d+)/.exec(row.textContent ?? "");
					if (match && !(match[1] in window.__seen)) window.__seen[match[1]] = Date.now();
				}
			}).observe(document.getElementById("timeline-list"), { childList: true, subtree: true });
		});
		for (let u = 0; u < UPDATES_PER_RUN; u++) {
			const id = `${run}-${u}`;
			const worktree = roots[((run * UPDATES_PER_RUN + u) * 7) % roots.length];
			await new Promise((resolve) => setTimeout(resolve, 400 + ((u * 137) % 300)));
			const { engine } = await openWorkspace({ cwd: worktree, env });
			const ref = { harness: "claude-code", sessionId: `bench-${id}` };
			const sent = Date.now();
			await engine.turnStarted(ref, "user");
			await page.waitForFunction((key) => window.__seen[key] !== undefined, id, { timeout: 30_000 });
			latencies.push((await page.evaluate((key) => window.__seen[key], id)) - sent);
		}
		await page.close();
	}

	const results = {
		command: "node bench/ui-scale.mjs",
		measuredAt: new Date().toISOString(),
		loadAverageAtStart,
		node: process.version,
		chromium: context.browser()?.version() ?? "unknown",
		platform: `${os.platform()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? "unknown",
		loadAverageAtEnd: os.loadavg().map((value) => Math.round(value * 10) / 10),
		fixture: {
			worktrees: WORKTREES,
			works: WORKTREES * WORKS_PER_WORKTREE,
			itemsPerPlan: ITEMS_PER_PLAN,
			decisionLogPerWorktree: `${Math.round((2 * LOG_BYTES) / 1024)} KiB (a full current file and one rotated)`,
		},
		startup: { how: "`boulder ui` launched to its address printed (reads the whole fleet once)", ms: round(startupMs) },
		firstScreen: summary(
			contentfulPaint,
			"navigation to the first screen painted: the server-drawn header counts, needs list, first 6 cards and timeline (the browser's first contentful paint)",
		),
		firstPaint: summary(
			firstPaint,
			"navigation to the page's script having taken over the first screen from the view, the server's cards kept where drawn alike (the page's `first-screen-drawn` mark)",
		),
		pageArrived: summary(
			pageArrived,
			"navigation to the server-drawn page fully received (the view built and drawn on the server, compressed)",
		),
		pageWeight: {
			how: "bytes transferred for the page, its style, its scripts and the view (resource timing; the event stream left out)",
			bytes: transferred[0] ?? null,
			kib: transferred[0] ? Math.round((transferred[0] / 1024) * 10) / 10 : null,
		},
		everyCard: summary(allDrawn, "navigation to all 100 cards drawn (the page's `dashboard-drawn` mark)"),
		viewReceived: summary(
			received,
			"navigation to the whole view received over the live stream (page, script, stream, JSON parsed)",
		),
		drawing: summary(drawing, "the view received to the first screen drawn: the page's own drawing"),
		liveUpdate: summary(latencies, "a real engine call logging a decision to its line in the page's timeline"),
		coldLook: { how: "the first look over the whole fleet, in-process", ms: round(coldLookMs) },
		idleLook: summary(idle, "one look over the whole fleet when nothing changed (stats only), in-process"),
	};
	await mkdir(path.join(here, "results"), { recursive: true });
	await writeFile(path.join(here, "results", "ui.json"), `${JSON.stringify(results, null, 2)}\n`);
	console.log(JSON.stringify(results, null, 2));
} finally {
	await context?.close();
	if (server && server.exitCode === null) {
		const exited = new Promise((resolve) => server.once("exit", resolve));
		server.kill("SIGTERM");
		await exited;
	}
	if (process.env.BENCH_KEEP === "1") console.error(`fixture kept in ${root}`);
	else await rm(root, { recursive: true, force: true });
}

function round(value) {
	return Math.round(value * 10) / 10;
}

function summary(samples, how) {
	const sorted = [...samples].sort((a, b) => a - b);
	return {
		how,
		runs: sorted.length,
		medianMs: round(sorted[Math.floor(sorted.length / 2)]),
		minMs: round(sorted[0]),
		maxMs: round(sorted.at(-1)),
	};
}
