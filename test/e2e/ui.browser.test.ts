/**
 * `boulder ui` in a real headless Chromium: the built bin serves two
 * worktrees rolled through the real engine and file store; the page shows
 * their progress, a decision the engine logs appears without a reload, the
 * stop button really stops continuation (the next idle decides `disabled`),
 * a request without the token or for another host is refused, and a corrupt
 * works file is a problem row while the rest still renders.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../../src/engine/open.js";
import { runBoulderOk } from "./support/boulder-cli.js";
import { type Browser, launchBrowser, type RunningUi, startUi } from "./support/ui-browser.js";

const PLAN_A =
	"# Ship the parser\n\n- [x] Read the spec\n- [ ] Write the parser\n  - [ ] handles empty input\n- [ ] Document it\n";
const PLAN_B =
	'---\nverify: "true"\n---\n# Tidy the docs\n\n- [x] List the pages\n- [x] Fix the links\n- [~] Ask for a review\n- [ ] Publish\n';
const SESSION_A = { harness: "claude-code", sessionId: "sess-a" };
const SESSION_B = { harness: "claude-code", sessionId: "sess-b" };
/** Generous: the machine is shared; this is how long the page may take, not how long it should. */
const LIVE = { timeout: 15_000 };

let root: string;
let env: NodeJS.ProcessEnv;
let wtA: string;
let wtB: string;
let ui: RunningUi;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function worktree(name: string, plan: string): Promise<string> {
	const dir = join(root, name);
	await mkdir(join(dir, ".git"), { recursive: true });
	await writeFile(join(dir, "PLAN.md"), plan);
	await runBoulderOk(["start", "PLAN.md"], { cwd: dir, env });
	return dir;
}

/** One real user turn that ends, then the idle: what a harness's hooks make the engine do. */
async function userTurnThenIdle(dir: string, ref: typeof SESSION_A) {
	const { engine } = await openWorkspace({ cwd: dir, env });
	await engine.turnStarted(ref, "user");
	await engine.turnEnded(ref, { outcome: "end", spend: { input: 1200, output: 300, cacheWrite: 0 } });
	return engine.onIdle(ref);
}

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), "boulder-ui-e2e-"));
	env = {
		PATH: process.env.PATH,
		HOME: join(root, "home"),
		BOULDER_STATE_HOME: join(root, "state"),
		XDG_CONFIG_HOME: join(root, "config"),
		NO_COLOR: "1",
	};
	wtA = await worktree("alpha", PLAN_A);
	wtB = await worktree("beta", PLAN_B);
	const first = await userTurnThenIdle(wtA, SESSION_A);
	expect(first).toMatchObject({ kind: "inject", reason: "continue" });
	ui = await startUi({ cwd: root, env });
	browser = await launchBrowser(["--host-resolver-rules=MAP rebind.test 127.0.0.1"]);
	page = await browser.context.newPage();
	page.on("pageerror", (error) => pageErrors.push(error.message));
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await ui?.stop();
	if (root) await rm(root, { recursive: true, force: true });
});

describe("boulder ui in a real browser", () => {
	it("refuses a request without the token", async () => {
		const response = await page.goto(`http://127.0.0.1:${ui.port}/`);
		expect(response?.status()).toBe(401);
		expect(await page.textContent("body")).toContain("open the address `boulder ui` printed");
		const api = await page.goto(`http://127.0.0.1:${ui.port}/api/view`);
		expect(api?.status()).toBe(401);
	});

	it("refuses a page whose name was rebound to this machine (a foreign Host), even with the token", async () => {
		const response = await page.goto(`http://rebind.test:${ui.port}/?token=${ui.token}`);
		expect(response?.status()).toBe(403);
		expect(await page.textContent("body")).toContain("answers only requests for 127.0.0.1");
	});

	it("shows both worktrees with their works' progress, items and the session's budgets", async () => {
		const response = await page.goto(ui.url);
		expect(response?.status()).toBe(200);
		expect(new URL(page.url()).search).toBe("");
		const alpha = page.getByRole("article", { name: "Worktree alpha" });
		const beta = page.getByRole("article", { name: "Worktree beta" });
		await expect.poll(() => alpha.isVisible(), LIVE).toBe(true);
		await expect.poll(() => alpha.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("1/3 done");
		await expect.poll(() => beta.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("2/4 done, 1 blocked");
		expect(await alpha.textContent()).toContain("Write the parser");
		await alpha.getByText("Items (3)").click();
		expect(await alpha.locator(".items").textContent()).toContain("handles empty input");
		expect(await alpha.locator(".session").textContent()).toContain("rolls Ship the parser");
		expect(await alpha.getByRole("meter", { name: "auto turns" }).getAttribute("aria-valuetext")).toBe("1 of 40");
		expect(await beta.textContent()).toContain("true");
		expect(await page.locator('#summary li[data-count="worktrees"]').textContent()).toBe("2 worktrees");
	});

	it("shows a decision the engine logs, live, without a reload", async () => {
		const before = await page.locator("#timeline-list li").count();
		const idle = await userTurnThenIdle(wtB, SESSION_B);
		expect(idle).toMatchObject({ kind: "inject", reason: "continue" });
		const row = page.locator("#timeline-list li", { hasText: "sess-b" }).filter({ hasText: "continued" });
		await expect.poll(() => row.count(), LIVE).toBeGreaterThan(0);
		expect(await page.locator("#timeline-list li").count()).toBeGreaterThan(before);
		const beta = page.getByRole("article", { name: "Worktree beta" });
		await expect.poll(() => beta.locator(".session").count(), LIVE).toBe(1);
	});

	it("filters the timeline by session, reached from the keyboard", async () => {
		await page.locator("body").click({ position: { x: 5, y: 5 } });
		await page.keyboard.press("/");
		expect(await page.evaluate(() => document.activeElement?.id)).toBe("filter-worktree");
		await page.locator("#filter-session").selectOption("claude-code:sess-a");
		const rows = page.locator("#timeline-list li");
		await expect
			.poll(async () => (await rows.allTextContents()).every((text) => text.includes("sess-a")), LIVE)
			.toBe(true);
		await page.locator("#filter-session").selectOption("");
	});

	it("stops continuation with the stop button: the next idle decides `disabled`", async () => {
		const alpha = page.getByRole("article", { name: "Worktree alpha" });
		await alpha.getByRole("button", { name: "Stop all continuation in alpha" }).click();
		await expect.poll(() => alpha.locator(".badge").first().textContent(), LIVE).toBe("stopped");
		await expect.poll(() => page.locator("#notice").textContent(), LIVE).toContain("Stopped");
		const { engine } = await openWorkspace({ cwd: wtA, env });
		await engine.delivered(SESSION_A, "any");
		await engine.turnStarted(SESSION_A, "continuation");
		await engine.turnEnded(SESSION_A, { outcome: "end" });
		const next = await engine.onIdle(SESSION_A);
		expect(next).toMatchObject({ kind: "skip", reason: "disabled" });
		const log = await readFile(join(wtA, ".boulder", "decisions.jsonl"), "utf8");
		expect(log).toContain("continuation turned off in this worktree by the dashboard (`boulder ui`)");
		await expect
			.poll(() => page.locator("#timeline-list li", { hasText: "disabled" }).count(), LIVE)
			.toBeGreaterThan(0);
	});

	it("renders a corrupt works file as a problem row, and the rest still renders", async () => {
		await writeFile(join(wtB, ".boulder", "works.json"), "{ not json");
		const beta = page.getByRole("article", { name: "Worktree beta" });
		const problem = beta.getByRole("note").filter({ hasText: "the works file could not be read" });
		await expect.poll(() => problem.count(), LIVE).toBe(1);
		expect(await beta.locator(".badge").first().textContent()).toBe("problem");
		const alpha = page.getByRole("article", { name: "Worktree alpha" });
		expect(await alpha.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("1/3 done");
	});

	it("shows a worktree that vanished as vanished, not as an error", async () => {
		await rm(wtB, { recursive: true, force: true });
		const beta = page.getByRole("article", { name: "Worktree beta" });
		await expect.poll(() => beta.locator(".badge").first().textContent(), LIVE).toBe("vanished");
		expect(await beta.textContent()).toContain("no longer exists");
		expect(pageErrors).toEqual([]);
	});
});

describe("the dashboard's answers to scripts", () => {
	it("refuses a change without the dashboard's own origin, even with the token", async () => {
		const response = await fetch(`http://127.0.0.1:${ui.port}/api/action`, {
			method: "POST",
			headers: { "Content-Type": "application/json", Authorization: `Bearer ${ui.token}` },
			body: JSON.stringify({ action: "go", worktree: wtA }),
		});
		expect(response.status).toBe(403);
	});
});
