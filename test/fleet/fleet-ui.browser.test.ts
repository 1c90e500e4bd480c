/**
 * `boulder ui --fleet` in a real headless Chromium: a real PostgreSQL, two
 * simulated machines that shipped their works; the page shows every
 * machine and filters them; a decision one machine ships appears without a
 * reload (the NOTIFY doorbell); the Stop button writes a command the target
 * applies through its own engine; no credential reaches the page; a request
 * without the token is refused.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsFrom } from "../../src/fleet/config.js";
import { runShipper } from "../../src/fleet/shipper.js";
import { type FleetDashboard, startFleetDashboard } from "../../src/ui/index.js";
import { type Browser, launchBrowser } from "../e2e/support/ui-browser.js";
import { type Machine, makeMachine, removeMachines } from "./support/machine.js";
import { type PgCluster, startPgCluster } from "./support/pg-cluster.js";

const LIVE = { timeout: 15_000 };
const SECRET = "never-on-the-page";

let cluster: PgCluster;
let laptop: Machine;
let runner: Machine;
let runnerRoot: string;
let ui: FleetDashboard;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const ship = (machine: Machine) =>
	runShipper({ env: machine.env, settings: settingsFrom(machine.env, null), lingerMs: 0 });

beforeAll(async () => {
	cluster = await startPgCluster();
	// Loopback trust: the password is not needed, so it shows only whether anything leaks it.
	const url = cluster.url.replace("boulder@", `boulder:${SECRET}@`);
	laptop = await makeMachine("laptop", url);
	runner = await makeMachine("runner", url);
	await laptop.worktree("app");
	runnerRoot = await runner.worktree("svc");
	await ship(laptop);
	await ship(runner);
	ui = await startFleetDashboard({ settings: settingsFrom(laptop.env, null), clock: { now: () => Date.now() } });
	browser = await launchBrowser();
	page = await browser.context.newPage();
	page.on("pageerror", (error) => pageErrors.push(error.message));
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await ui?.close();
	cluster?.destroy();
	await removeMachines();
});

describe("boulder ui --fleet in a real browser", () => {
	it("refuses a request without the token", async () => {
		const response = await page.goto(`http://127.0.0.1:${ui.port}/fleet`);
		expect(response?.status()).toBe(401);
		expect((await page.goto(`http://127.0.0.1:${ui.port}/fleet/view`))?.status()).toBe(401);
	});

	it("shows every machine with its works, in the local view's words, and no credential", async () => {
		const response = await page.goto(ui.url);
		expect(response?.status()).toBe(200);
		const machines = page.locator("section.machine");
		await expect.poll(() => machines.count(), LIVE).toBe(2);
		expect(await page.locator("[data-machine=runner] .work").textContent()).toContain("Ship it");
		expect(await page.locator("[data-machine=runner] .work").textContent()).toContain("active · 1/3 done");
		expect(await page.locator("#summary").textContent()).toContain("2 machines");
		expect(await page.locator("#connection").textContent()).toContain("boulder:***@");
		expect(await page.content()).not.toContain(SECRET);
		const view = await page.evaluate(async () => (await fetch("/fleet/view")).text());
		expect(view).not.toContain(SECRET);
	});

	it("filters by machine and by state", async () => {
		await page.selectOption("#f-machine", "runner");
		await expect.poll(() => page.locator("section.machine").count(), LIVE).toBe(1);
		expect(await page.locator("section.machine h2").textContent()).toContain("runner");
		await page.selectOption("#f-machine", "");
		await page.selectOption("#f-state", "done");
		await expect.poll(() => page.locator("#machines").textContent(), LIVE).toContain("No machine matches.");
		await page.selectOption("#f-state", "");
		await expect.poll(() => page.locator("section.machine").count(), LIVE).toBe(2);
	});

	it("shows a decision a machine ships, live, without a reload", async () => {
		const before = await page.evaluate(() => document.body.dataset.renderedAt);
		const { openWorkspace } = await import("../../src/engine/open.js");
		const { engine } = await openWorkspace({ cwd: runnerRoot, env: runner.env });
		const ref = { harness: "codex", sessionId: "live-session" };
		await engine.turnStarted(ref, "user");
		await engine.todosChanged(ref, [
			{ content: "first thing", status: "completed" },
			{ content: "second thing", status: "pending" },
		]);
		await ship(runner);
		await expect.poll(() => page.locator("[data-machine=runner] [data-session=live-session]").count(), LIVE).toBe(1);
		expect(await page.evaluate(() => document.body.dataset.renderedAt)).not.toBe(before);
		// The ring named the machine that shipped: only it was read again.
		expect(await page.evaluate(() => document.body.dataset.lastRead)).toBe("runner");
		expect(await page.locator("[data-machine=runner] [data-session=live-session]").textContent()).toContain(
			"codex live-session · its own list · 1/2 done",
		);
	});

	it("stops a machine from its button: the target applies it through its engine", async () => {
		await page.locator("[data-machine=runner] button[data-action=stop][data-kind=machine]").click();
		await expect.poll(() => page.locator("#notice").textContent(), LIVE).toContain("Sent: stop runner");
		await expect
			.poll(() => page.locator("[data-machine=runner] h2").textContent(), LIVE)
			.toContain("1 command(s) not yet applied");
		await ship(runner);
		const works = await runner.store(runnerRoot).readWorks();
		expect(works.kind === "ok" && works.value.stopped?.by).toBe("the fleet, from the dashboard of laptop");
		await expect
			.poll(() => page.locator("[data-machine=runner] .worktree h3").textContent(), LIVE)
			.toContain("stopped by the fleet, from the dashboard of laptop");
		expect(pageErrors).toEqual([]);
	});
});
