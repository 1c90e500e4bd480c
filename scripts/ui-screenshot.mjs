/**
 * Refreshes the dashboard's screenshots in `docs/` (`ui.png`, light, and
 * `ui-dark.png`): a small made-up fleet in a temp folder, the real `boulder
 * ui` (the built bin), Debian's headless Chromium. Run after `npm run build`:
 * `node scripts/ui-screenshot.mjs`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { buildFleet } from "../bench/ui-fleet.mjs";

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
	const [, docs] = await buildFleet({
		dist,
		root: path.join(root, "projects"),
		env,
		now: Date.now(),
		names: ["parser", "docs-site", "cli-windows"],
		worksPerWorktree: 3,
		itemsPerPlan: 7,
		logBytes: 0,
	});
	const { FileStore } = await import(path.join(dist, "state", "index.js"));
	const { setStopped } = await import(path.join(dist, "engine", "works-ops.js"));
	const { filePlans } = await import(path.join(dist, "engine", "plan-files.js"));
	await setStopped(
		{ store: new FileStore(docs), clock: { now: () => Date.now() - 12 * 60_000 }, plans: filePlans },
		true,
		"`boulder stop`",
	);

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
	const profile = path.join(root, "chromium");
	context = await chromium.launchPersistentContext(profile, {
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
	for (const [theme, file] of [
		["light", "ui.png"],
		["dark", "ui-dark.png"],
	]) {
		await page.emulateMedia({ colorScheme: theme });
		await page.goto(theme === "light" ? url : new URL("/", url).href);
		await page.waitForFunction(() => document.querySelectorAll("article.card").length === 3);
		await page
			.getByRole("article", { name: "Worktree parser" })
			.locator("summary", { hasText: "Items" })
			.first()
			.click();
		await page.screenshot({ path: path.join(repoRoot, "docs", file), fullPage: false });
		console.log(`wrote docs/${file}`);
	}
} finally {
	await context?.close();
	if (server && server.exitCode === null) {
		const exited = new Promise((resolve) => server.once("exit", resolve));
		server.kill("SIGTERM");
		await exited;
	}
	await rm(root, { recursive: true, force: true });
}
