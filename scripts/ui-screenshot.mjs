/**
 * Refreshes the dashboard's screenshots in `docs/`: a small made-up fleet
 * with a session in every state (`bench/ui-states.mjs`), served by the real
 * `boulder ui` (the built bin) to Debian's headless Chromium. Four views:
 * `ui.png` (light), `ui-dark.png`, `ui-narrow.png` (390 px wide) and
 * `ui-needs.png` (only what needs me). Also prints what the first screen
 * weighs (bytes transferred: the page, its style, its scripts and the view).
 * Run after `npm run build`: `node scripts/ui-screenshot.mjs`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { buildEveryState } from "../bench/ui-states.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(repoRoot, "dist");
if (!existsSync(path.join(dist, "ui", "client", "app.js"))) {
	console.error("dist/ is missing: run `npm run build` first.");
	process.exit(1);
}

const root = await mkdtemp(path.join(os.tmpdir(), "boulder-ui-screenshot-"));
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
	await buildEveryState({ dist, root: path.join(root, "projects"), env, now: Date.now() });
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
	context = await chromium.launchPersistentContext(path.join(root, "chromium"), {
		executablePath: process.env.BOULDER_CHROMIUM ?? "/usr/bin/chromium",
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
		viewport: { width: 1440, height: 1100 },
	});
	const page = await context.newPage();
	// The cookie first: the token's address redirects to the clean one.
	await page.goto(url);
	const views = [
		{ file: "ui.png", scheme: "light", width: 1440, height: 1100 },
		{ file: "ui-dark.png", scheme: "dark", width: 1440, height: 1100 },
		{ file: "ui-narrow.png", scheme: "light", width: 390, height: 1500 },
		{ file: "ui-needs.png", scheme: "light", width: 1440, height: 1100, needs: true },
	];
	for (const view of views) {
		await page.setViewportSize({ width: view.width, height: view.height });
		await page.emulateMedia({ colorScheme: view.scheme });
		await page.goto(new URL("/", url).href);
		await page.waitForFunction(() => document.getElementById("connection")?.dataset.state === "live");
		if (view.needs) {
			await page.locator("#only-needs").click();
			// Past the "needs you" list, to the cards that are left.
			await page.evaluate(() => window.scrollTo(0, (document.getElementById("worktrees")?.offsetTop ?? 0) - 90));
		}
		await page.screenshot({ path: path.join(repoRoot, "docs", view.file), fullPage: false });
		console.log(`wrote docs/${view.file}`);
	}
	const weight = await page.evaluate(() => {
		const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
		return entries.map((entry) => ({
			name: new URL(entry.name).pathname,
			transferred: entry.transferSize,
			body: entry.encodedBodySize,
		}));
	});
	const total = weight.reduce((sum, entry) => sum + entry.transferred, 0);
	console.log(`first screen, transferred: ${total} bytes (${(total / 1024).toFixed(1)} KiB)`);
	for (const entry of weight) console.log(`  ${entry.transferred}\t${entry.name}`);
} finally {
	await context?.close();
	if (server && server.exitCode === null) {
		const exited = new Promise((resolve) => server.once("exit", resolve));
		server.kill("SIGTERM");
		await exited;
	}
	await rm(root, { recursive: true, force: true });
}
