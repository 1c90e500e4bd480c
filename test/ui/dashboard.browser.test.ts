/**
 * The dashboard a person keeps open, in a real headless Chromium against the
 * built `boulder ui`: a fleet with a session in every state (bench/ui-states.mjs).
 * The header counts every card once; what needs a person comes first with what
 * resolves it; the progress chart's points are the log's; every item shows;
 * the first screen is there without scripts; a state file that breaks while
 * the server runs shows up; 390 px is usable and axe finds nothing serious.
 */
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain module of the bench, built against dist/
import { buildEveryState, TRANSCRIPT } from "../../bench/ui-states.mjs";
import { runBoulder } from "../e2e/support/boulder-cli.js";
import { type Browser, launchBrowser, type RunningUi, startUi } from "../e2e/support/ui-browser.js";

const LIVE = { timeout: 15_000 };
const dist = fileURLToPath(new URL("../../dist", import.meta.url));
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface Fixture {
	parser: string;
	docs: string;
	cli: string;
	history: { at: number; kind: string; work: string | null; figures?: Record<string, number> }[];
}

let root: string;
let env: NodeJS.ProcessEnv;
let fixture: Fixture;
let ui: RunningUi;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), "boulder-ui-states-"));
	env = {
		PATH: process.env.PATH,
		HOME: join(root, "home"),
		BOULDER_STATE_HOME: join(root, "state"),
		XDG_CONFIG_HOME: join(root, "config"),
		NO_COLOR: "1",
	};
	fixture = await buildEveryState({ dist, root: join(root, "projects"), env, now: Date.now() });
	ui = await startUi({ cwd: root, env });
	browser = await launchBrowser();
	page = await browser.context.newPage();
	page.on("pageerror", (error) => pageErrors.push(error.message));
	await page.goto(ui.url);
	await page.waitForFunction(() => document.getElementById("connection")?.dataset.state === "live", null, LIVE);
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await ui?.stop();
	if (root) await rm(root, { recursive: true, force: true });
});

async function count(key: string): Promise<number> {
	return Number(await page.locator(`#summary li[data-count="${key}"] strong`).textContent());
}

const STANDINGS = ["rolling", "waiting", "verify-failed", "held", "problem", "off", "done", "idle"] as const;

/** The header's counts as the page shows them, in the shape of `boulder status --all --json`'s `counts`. */
async function headerCounts(): Promise<Record<string, unknown>> {
	const shown = Object.fromEntries(
		await page
			.locator("#summary li[data-count]")
			.evaluateAll((items) =>
				items.map((li) => [li.getAttribute("data-count"), Number(li.querySelector("strong")?.textContent)]),
			),
	) as Record<string, number>;
	return {
		worktrees: shown.worktrees,
		withProblem: shown["with-problem"],
		stopped: shown.stopped,
		vanished: shown.vanished ?? 0,
		needYou: shown["need-you"],
		sessions: shown.sessions,
		standing: Object.fromEntries(STANDINGS.map((standing) => [standing, shown[standing]])),
	};
}

/** `boulder status --all --json`, run as a person would, beside the page. */
async function statusJson(): Promise<{
	counts: Record<string, unknown>;
	worktrees: { worktree: string; standings: { scope: string; standing: string }[] }[];
}> {
	const run = await runBoulder(["status", "--all", "--json"], { cwd: root, env });
	expect(run.stderr).toBe("");
	return JSON.parse(run.stdout);
}

/** The page's session cards, one `scope standing` each, and the same from the status. */
async function cardsAndStandings(): Promise<{ cards: string[]; listed: string[] }> {
	const cards = await page
		.locator("#worktrees .session")
		.evaluateAll((sessions) =>
			sessions.map((s) => `${s.getAttribute("data-scope")} ${s.getAttribute("data-standing")}`),
		);
	const status = await statusJson();
	const listed = status.worktrees.flatMap((w) => w.standings.map((entry) => `${entry.scope} ${entry.standing}`));
	return { cards: cards.sort(), listed: listed.sort() };
}

describe("the header is the truth", () => {
	it("counts every session card in exactly one state, and the worktrees with a problem", async () => {
		const expected = { rolling: 2, waiting: 1, "verify-failed": 1, held: 2, problem: 0, off: 1, done: 1, idle: 0 };
		for (const standing of STANDINGS) {
			expect(await count(standing), standing).toBe(expected[standing]);
			expect(await page.locator(`.session[data-standing="${standing}"]`).count(), standing).toBe(expected[standing]);
		}
		expect(await count("sessions")).toBe(await page.locator(".session").count());
		expect(await count("worktrees")).toBe(3);
		// The missing plan is a problem on docs-site's card, and the header says so.
		expect(await count("with-problem")).toBe(1);
		const docs = page.getByRole("article", { name: "Worktree docs-site" });
		expect(await docs.getByRole("note").filter({ hasText: "REFACTOR.md is missing" }).count()).toBe(1);
		expect(await docs.locator(".badge").first().textContent()).toBe("problem");
		// A held session is held on its worktree's badge, never `on`.
		const parser = page.getByRole("article", { name: "Worktree parser" });
		expect(await parser.locator(".card-head .badge").textContent()).not.toBe("on");
	});

	it("says what `boulder status --all --json` says: the same counts, and each card's standing once", async () => {
		expect(await headerCounts()).toEqual((await statusJson()).counts);
		const { cards, listed } = await cardsAndStandings();
		expect(cards.length).toBe(8);
		expect(listed).toEqual(cards);
	});

	it("never shows a failed verify as a green `continued`", async () => {
		const parser = page.getByRole("article", { name: "Worktree parser" });
		const session = parser.locator('.session[data-standing="verify-failed"]');
		expect(await session.locator(".badge").first().textContent()).toBe("verify failed");
		expect(await session.locator(".badge.tone-go").count()).toBe(0);
	});
});

describe("needs me first", () => {
	it("lists what waits for a person, each with what resolves it, and puts those cards first", async () => {
		const rows = page.locator("#needs li");
		const texts = await rows.allTextContents();
		expect(texts.length).toBe(5);
		expect(texts.some((t) => t.includes("REFACTOR.md is missing") && t.includes("boulder doctor"))).toBe(true);
		expect(
			texts.some(
				(t) => t.includes("should the old links redirect?") && t.includes("Answer it in the opencode session"),
			),
		).toBe(true);
		expect(texts.some((t) => t.includes("npm test") && t.includes("exit 1"))).toBe(true);
		expect(texts.filter((t) => t.includes("is held")).length).toBe(2);
		const order = await page
			.locator("#worktrees > article")
			.evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label")));
		expect(order).toEqual(["Worktree docs-site", "Worktree parser", "Worktree cli-windows"]);
	});

	it("filters to what needs me from the keyboard alone", async () => {
		await page.locator("#only-needs").focus();
		await page.keyboard.press("Enter");
		expect(await page.locator("#only-needs").getAttribute("aria-pressed")).toBe("true");
		expect(await page.getByRole("article", { name: "Worktree cli-windows" }).isVisible()).toBe(false);
		expect(await page.getByRole("article", { name: "Worktree parser" }).isVisible()).toBe(true);
		await page.locator("body").click({ position: { x: 2, y: 400 } });
		await page.keyboard.press("n");
		expect(await page.locator("#only-needs").getAttribute("aria-pressed")).toBe("false");
		expect(await page.getByRole("article", { name: "Worktree cli-windows" }).isVisible()).toBe(true);
	});
});

describe("pictures from the decision log", () => {
	it("draws the work's progress with one point per logged decision (items done at its time), nudges marked", async () => {
		const parser = page.getByRole("article", { name: "Worktree parser" });
		const points = await parser.locator(".work svg.chart circle.pt").evaluateAll((circles) =>
			circles.map((c) => ({
				at: Number(c.getAttribute("data-at")),
				done: Number(c.getAttribute("data-done")),
				nudge: c.classList.contains("nudge"),
			})),
		);
		const logged = fixture.history
			.filter((r) => r.work === "ship-the-parser" && r.kind !== "event" && (r.figures?.total ?? 0) > 0)
			.map((r) => ({ at: r.at, done: r.figures?.done ?? 0, nudge: r.kind === "inject" }));
		expect(points.slice(0, -1)).toEqual(logged);
		// The last point is the plan as it is now: 3 of 5 done.
		expect(points.at(-1)).toMatchObject({ done: 3, nudge: false });
		expect(await parser.locator(".work svg.chart").getAttribute("aria-label")).toContain("4 nudge(s)");
	});

	it("draws a session's turns on lanes (you, continuation, decision) and its tokens against the budget", async () => {
		const rolling = page.locator('.session[data-scope*="ses-rolling"]');
		const lanes = await rolling
			.locator("svg .mark")
			.evaluateAll((marks) => marks.map((m) => m.getAttribute("data-lane")));
		expect(lanes).toEqual([
			"user",
			"continuation",
			"continuation",
			"continuation",
			"decision",
			"user",
			"continuation",
			"decision",
		]);
		expect(await rolling.locator("svg.chart").nth(1).getAttribute("aria-label")).toContain(
			"tokens spent by continuations",
		);
	});
});

describe("every item visible", () => {
	it("shows a session's own todo list without a click, and says `own list` only of it", async () => {
		const cli = page.getByRole("article", { name: "Worktree cli-windows" });
		expect(await cli.getByText("Quote arguments for cmd.exe", { exact: true }).isVisible()).toBe(true);
		expect(await cli.locator(".session").textContent()).toContain("its own todo list (3 item(s))");
		const docs = page.getByRole("article", { name: "Worktree docs-site" });
		expect(await docs.locator(".session", { hasText: "own todo list" }).count()).toBe(0);
	});

	it("shows acceptance criteria, the failing check's last lines with the whole output on request, and the plan's path to copy", async () => {
		const parser = page.getByRole("article", { name: "Worktree parser" });
		await parser.getByText("Items (5)").click();
		await expect.poll(() => parser.locator(".criteria").count(), LIVE).toBe(1);
		expect(await parser.locator(".criteria").textContent()).toContain("☑ never throws");
		const shown = await parser.locator("pre.output").first().textContent();
		expect(shown).toContain("case 30");
		expect(shown).not.toContain("case 1:");
		await parser.getByText("The whole output (30 lines)").click();
		expect(await parser.locator("pre.output.full").textContent()).toContain("case 1:");
		const plan = parser.getByRole("button", { name: /^plan of Ship the parser/ });
		expect(await plan.getAttribute("data-copy")).toBe(join(fixture.parser, "PLAN.md"));
	});
});

describe("the transcript path", () => {
	it("shows where the harness keeps a session's transcript, to copy, and never serves or links it", async () => {
		const rolling = page.locator('.session[data-scope*="ses-rolling"]');
		const path = rolling.getByRole("button", { name: /^transcript of / });
		expect(await path.getAttribute("data-copy")).toBe(TRANSCRIPT);
		expect(await path.getAttribute("title")).toBe(TRANSCRIPT);
		expect(await page.locator('[href*="ses-rolling.jsonl"], [src*="ses-rolling.jsonl"]').count()).toBe(0);
		// Only the page's own modules are served: the path, however asked, is not a file the dashboard gives.
		const asked = [TRANSCRIPT, `/assets${TRANSCRIPT}`, `/assets/..${TRANSCRIPT}`];
		const statuses = await page.evaluate(
			(paths: string[]) => Promise.all(paths.map(async (p) => (await fetch(p, { credentials: "same-origin" })).status)),
			asked,
		);
		expect(statuses).toEqual([404, 404, 404]);
		// Sessions whose harness said nothing show no transcript line.
		expect(await page.locator(".session .transcript").count()).toBe(1);
	});
});

describe("the first screen without scripts", () => {
	it("is drawn by the server: counts, the needs list and the cards, not `connecting…`", async () => {
		const bare = await launchBrowser([], { javaScriptEnabled: false });
		try {
			const noScript = await bare.context.newPage();
			await noScript.goto(ui.url);
			const text = (await noScript.locator("body").textContent()) ?? "";
			expect(text).not.toContain("connecting…");
			expect(text).not.toContain("Loading…");
			expect(await noScript.locator("article.card").count()).toBe(3);
			expect(await noScript.locator('#summary li[data-count="held"] strong').textContent()).toBe("2");
			expect(await noScript.locator("#needs li").count()).toBe(5);
			expect(await noScript.locator(".work svg.chart circle.pt").count()).toBeGreaterThan(2);
			expect(await noScript.locator('[role="progressbar"] rect.done').first().getAttribute("width")).toBe("60%");
		} finally {
			await bare.close();
		}
	});
});

describe("live problems", () => {
	it("shows a state file that becomes unreadable while the server runs, within the live interval", async () => {
		const before = await count("problem");
		const scopes = join(fixture.cli, ".boulder", "scopes");
		const [file] = await readdir(scopes);
		const text = await readFile(join(scopes, file ?? ""), "utf8");
		await writeFile(join(scopes, file ?? ""), `${text.slice(0, 40)} <- cut short`);
		const cli = page.getByRole("article", { name: "Worktree cli-windows" });
		await expect
			.poll(() => cli.getByRole("note").filter({ hasText: "state file could not be read" }).count(), LIVE)
			.toBe(1);
		expect(await count("problem")).toBe(before + 1);
		expect(await count("with-problem")).toBe(2);
		// The CLI counts the unreadable state file as the page does.
		expect(await headerCounts()).toEqual((await statusJson()).counts);
		const { cards, listed } = await cardsAndStandings();
		expect(listed).toEqual(cards);
	});
});

describe("narrow screens and accessibility", () => {
	it("at 390 px: nothing scrolls sideways, a long path keeps one line and its end, whole on focus", async () => {
		await page.setViewportSize({ width: 390, height: 900 });
		await page.locator("#only-needs").waitFor();
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
		const path = page.getByRole("article", { name: "Worktree cli-windows" }).locator(".card-head .path");
		const box = await path.boundingBox();
		const line = await path.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 18);
		expect(box?.height ?? 0).toBeLessThan(line * 1.6);
		expect(box?.width ?? 0).toBeGreaterThan(200);
		expect(await path.locator(".tail").textContent()).toBe("/cli-windows");
		expect(await path.getAttribute("title")).toBe(fixture.cli);
		await path.focus();
		const focused = await path.boundingBox();
		expect(focused?.height ?? 0).toBeGreaterThan(line * 1.6);
		// Every path (the plan's too, in its table) keeps inside the screen: a card clips what overflows it.
		const rights = await page
			.locator("#worktrees .path")
			.evaluateAll((paths) => paths.map((p) => p.getBoundingClientRect().right));
		expect(rights.length).toBeGreaterThan(3);
		for (const right of rights) expect(right).toBeLessThanOrEqual(390);
		for (const card of await page.locator("#worktrees > article").all()) {
			const cardBox = await card.boundingBox();
			expect((cardBox?.x ?? 0) + (cardBox?.width ?? 0)).toBeLessThanOrEqual(390);
		}
		await page.setViewportSize({ width: 1400, height: 1000 });
	});

	for (const scheme of ["light", "dark"] as const) {
		it(`has no serious or critical accessibility violation (axe-core), ${scheme}`, async () => {
			await page.emulateMedia({ colorScheme: scheme });
			await page.getByRole("article", { name: "Worktree parser" }).locator("summary").first().click();
			const source = await readFile(AXE, "utf8");
			const violations = (await page.evaluate(`${source};
				axe.run(document, { resultTypes: ["violations"] }).then((r) =>
					r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
						.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) })))`)) as unknown[];
			expect(violations).toEqual([]);
		});
	}

	it("keeps the cards the server drew when the live stream connects and through the first live update: focus, scroll, identity", async () => {
		const fresh = await browser.context.newPage();
		fresh.on("pageerror", (error) => pageErrors.push(error.message));
		try {
			await fresh.setViewportSize({ width: 1000, height: 500 });
			// The page's script is held back until the server's first screen is marked, focused and scrolled.
			let release: () => void = () => {};
			const held = new Promise<void>((resolve) => {
				release = resolve;
			});
			await fresh.route("**/assets/ui/client/app.js", async (route) => {
				await held;
				await route.continue();
			});
			await fresh.goto(ui.url, { waitUntil: "commit" });
			await fresh.locator("#worktrees > article").first().waitFor();
			const parserCopy = fresh
				.getByRole("article", { name: "Worktree parser" })
				.getByRole("button", { name: /^plan of Ship the parser/ });
			await parserCopy.focus();
			const scrolled = await fresh.evaluate(() => {
				for (const element of document.querySelectorAll("#worktrees > article, #timeline-list > li, #summary > ul")) {
					(element as HTMLElement & { drawnBy?: string }).drawnBy = "server";
				}
				window.scrollTo(0, 300);
				return window.scrollY;
			});
			expect(scrolled).toBeGreaterThan(0);
			expect(await fresh.locator("#connection").getAttribute("data-state")).toBe("snapshot");
			release();
			await fresh.waitForFunction(() => document.getElementById("connection")?.dataset.state === "live", null, LIVE);
			// A first live update, below what is shown: a decision of the session rolling its own list.
			const scope = "session.codex.ses-own-list";
			await appendFile(
				join(fixture.cli, ".boulder", "decisions.jsonl"),
				`${JSON.stringify({ v: 1, at: Date.now(), worktree: fixture.cli, scope, harness: "codex", session: "ses-own-list", work: null, kind: "event", reason: "user-turn", detail: "a real user turn" })}\n`,
			);
			await fresh.waitForFunction(() => document.querySelector("#timeline-list > li.fresh") !== null, null, LIVE);
			const kept = await fresh.evaluate(() => {
				const by = (selector: string) =>
					[...document.querySelectorAll(selector)].map(
						(e) => (e as HTMLElement & { drawnBy?: string }).drawnBy ?? "page",
					);
				return {
					cards: Object.fromEntries(
						[...document.querySelectorAll<HTMLElement>("#worktrees > article")].map((card) => [
							card.getAttribute("aria-label"),
							(card as HTMLElement & { drawnBy?: string }).drawnBy ?? "page",
						]),
					),
					rows: by("#timeline-list > li:not(.fresh)"),
					summary: by("#summary > ul"),
					focused: document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent,
					scrollY: window.scrollY,
				};
			});
			expect(kept.cards["Worktree parser"]).toBe("server");
			expect(kept.cards["Worktree docs-site"]).toBe("server");
			expect(kept.rows.length).toBeGreaterThan(0);
			expect(new Set(kept.rows)).toEqual(new Set(["server"]));
			expect(kept.summary).toEqual(["server"]);
			expect(await parserCopy.evaluate((button) => button === document.activeElement)).toBe(true);
			expect(kept.scrollY).toBe(scrolled);
			// What the server drew still works: its closed sections open and draw their content.
			const parser = fresh.getByRole("article", { name: "Worktree parser" });
			await parser.getByText("Items (5)").click();
			await expect.poll(() => parser.locator(".criteria").count(), LIVE).toBe(1);
		} finally {
			await fresh.close();
		}
	});

	it("met no script error", () => {
		expect(pageErrors).toEqual([]);
	});
});
