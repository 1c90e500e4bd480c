/**
 * The dashboard's HTTP face in-process (Hono's `request`), over the real
 * fleet read model and file store: who is let in, what is refused, and that
 * an action goes through the engine and is logged like the CLI's.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { Fleet } from "../../src/engine/fleet.js";
import { createApp, MAX_ACTION_BYTES } from "../../src/ui/app.js";
import { newToken } from "../../src/ui/guard.js";
import { LiveFleet } from "../../src/ui/live.js";
import { PLAN, type Sandbox, sandbox } from "../cli/helpers.js";

const PORT = 4173;
const HOST = `127.0.0.1:${PORT}`;
const ORIGIN = `http://${HOST}`;

let box: Sandbox;
let token: string;
let app: ReturnType<typeof createApp>;

beforeEach(async () => {
	box = await sandbox();
	await box.write("PLAN.md", PLAN);
	expect((await box.run(["start", "PLAN.md"])).code).toBe(0);
	token = newToken();
	const live = new LiveFleet(new Fleet({ env: box.env }), { clock: box.clock, intervalMs: 60_000 });
	await live.fleet.look();
	app = createApp({ token, port: () => PORT, live, actions: { clock: box.clock, env: box.env } });
});

function request(url: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
	return app.request(`http://${HOST}${url}`, { ...init, headers: { Host: HOST, ...init.headers } });
}

const withToken = () => ({ Authorization: `Bearer ${token}` });

function action(body: unknown, headers: Record<string, string> = {}) {
	return request("/api/action", {
		method: "POST",
		headers: { ...withToken(), Origin: ORIGIN, "Content-Type": "application/json", ...headers },
		body: JSON.stringify(body),
	});
}

describe("the dashboard's server", () => {
	it("moves the token from the address into an HttpOnly, SameSite=Strict cookie of its port, then serves the page", async () => {
		const first = await request(`/?token=${token}`);
		expect(first.status).toBe(303);
		expect(first.headers.get("location")).toBe("/");
		const cookie = first.headers.get("set-cookie") ?? "";
		expect(cookie).toContain(`boulder-ui-${PORT}=${token}`);
		expect(cookie).toMatch(/HttpOnly/);
		expect(cookie).toMatch(/SameSite=Strict/);
		const page = await request("/", { headers: { Cookie: `boulder-ui-${PORT}=${token}` } });
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('<script type="module" src="/assets/ui/client/app.js">');
		expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
		expect(page.headers.get("x-frame-options")).toBe("DENY");
	});

	it("refuses a request without the token, with a wrong one, or for another host", async () => {
		expect((await request("/")).status).toBe(401);
		expect((await request("/api/view", { headers: { Authorization: "Bearer nope" } })).status).toBe(401);
		const rebound = await app.request(`http://evil.test:${PORT}/?token=${token}`, {
			headers: { Host: `evil.test:${PORT}` },
		});
		expect(rebound.status).toBe(403);
		expect(rebound.headers.get("content-security-policy")).toContain("default-src 'none'");
	});

	it("gives the view as JSON (the worktree, its work's progress) and a work's items when asked", async () => {
		const response = await request("/api/view", { headers: withToken() });
		const view = await response.json();
		expect(view.worktrees).toHaveLength(1);
		expect(view.worktrees[0].works[0]).toMatchObject({
			name: "Ship the CLI",
			progressText: "1/4 done, 1 blocked",
			next: "Write the status command",
		});
		expect(view.worktrees[0].works[0].itemCount).toBe(4);
		const query = new URLSearchParams({ worktree: box.worktree, work: "ship-the-cli" });
		const items = await (await request(`/api/items?${query}`, { headers: withToken() })).json();
		expect(items[1]).toMatchObject({ title: "Write the status command", status: "pending" });
		expect(items[1].criteria).toEqual([{ text: "it shows progress", checked: false }]);
		const unknown = new URLSearchParams({ worktree: path.join(box.root, "elsewhere"), work: "ship-the-cli" });
		expect((await request(`/api/items?${unknown}`, { headers: withToken() })).status).toBe(404);
	});

	it("serves the style and only the page's own modules", async () => {
		const style = await request("/assets/app.css", { headers: withToken() });
		expect(style.headers.get("content-type")).toContain("text/css");
		for (const other of ["/assets/cli/main.js", "/assets/../package.json", "/assets/ui/server.js"]) {
			expect((await request(other, { headers: withToken() })).status).toBe(404);
		}
	});

	it("refuses a change without the dashboard's own origin, or that is not a JSON body", async () => {
		expect((await action({ action: "stop", worktree: box.worktree }, { Origin: "http://evil.test" })).status).toBe(403);
		const form = await request("/api/action", {
			method: "POST",
			headers: { ...withToken(), Origin: ORIGIN, "Content-Type": "text/plain" },
			body: JSON.stringify({ action: "stop", worktree: box.worktree }),
		});
		expect(form.status).toBe(415);
	});

	it("refuses a body larger than an action before reading it (413), with or without its length, and changes nothing", async () => {
		const big = JSON.stringify({ action: "stop", worktree: box.worktree, work: "x".repeat(MAX_ACTION_BYTES) });
		const sized = await action(JSON.parse(big));
		expect(sized.status).toBe(413);
		expect(await sized.json()).toMatchObject({
			ok: false,
			message: expect.stringContaining(`${MAX_ACTION_BYTES} bytes`),
		});
		let sent = 0;
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent++ >= 8) controller.close();
				else controller.enqueue(new Uint8Array(MAX_ACTION_BYTES / 2).fill(32));
			},
		});
		const streamed = await request("/api/action", {
			method: "POST",
			headers: { ...withToken(), Origin: ORIGIN, "Content-Type": "application/json" },
			body: stream,
			duplex: "half",
		} as RequestInit & { headers: Record<string, string> });
		expect(streamed.status).toBe(413);
		expect(sent).toBeLessThan(8);
		const engine = await box.engine();
		await engine.turnStarted({ harness: "claude-code", sessionId: "s1" }, "user");
		await engine.turnEnded({ harness: "claude-code", sessionId: "s1" }, { outcome: "end" });
		expect(await engine.onIdle({ harness: "claude-code", sessionId: "s1" })).not.toMatchObject({ reason: "disabled" });
	});

	it("stops the worktree through the engine and logs it as the CLI does, naming the dashboard", async () => {
		const response = await action({ action: "stop", worktree: box.worktree });
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ ok: true });
		const engine = await box.engine();
		await engine.turnStarted({ harness: "claude-code", sessionId: "s1" }, "user");
		await engine.turnEnded({ harness: "claude-code", sessionId: "s1" }, { outcome: "end" });
		expect(await engine.onIdle({ harness: "claude-code", sessionId: "s1" })).toMatchObject({ reason: "disabled" });
		const log = await readFile(path.join(box.worktree, ".boulder", "decisions.jsonl"), "utf8");
		expect(log).toContain('"reason":"stopped"');
		expect(log).toContain("continuation turned off in this worktree by the dashboard (`boulder ui`)");
	});

	it("pauses a work and logs it like `boulder pause`", async () => {
		const response = await action({ action: "pause", worktree: box.worktree, work: "ship-the-cli" });
		expect(await response.json()).toMatchObject({ ok: true, message: 'Paused "Ship the CLI".' });
		const log = await readFile(path.join(box.worktree, ".boulder", "decisions.jsonl"), "utf8");
		expect(log).toContain('"reason":"work-paused"');
		expect(log).toContain('\\"Ship the CLI\\", by the dashboard (`boulder ui`)');
	});

	it("refuses an action on what it does not show: another folder, an unknown work or session, a malformed body", async () => {
		const elsewhere = await action({ action: "stop", worktree: path.join(box.root, "elsewhere") });
		expect(elsewhere.status).toBe(409);
		expect((await elsewhere.json()).message).toContain("not a worktree this dashboard shows");
		expect((await action({ action: "abandon", worktree: box.worktree, work: "nope" })).status).toBe(409);
		const session = { harness: "claude-code", sessionId: "never-seen" };
		expect((await action({ action: "stop", worktree: box.worktree, session })).status).toBe(409);
		expect((await action({ action: "explode", worktree: box.worktree })).status).toBe(400);
		expect((await action({ action: "stop", worktree: box.worktree, extra: 1 })).status).toBe(400);
	});
});
