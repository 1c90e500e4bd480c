/**
 * A shortened id is the session (or work) it names only when it names one:
 * `--session sess-bbb` is `sess-bbbb-2222` when no other session starts so;
 * a prefix that fits several, or none, is refused with the candidates
 * (exit 2), and no state is ever made for a session boulder has not seen.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionRef } from "../../src/engine/engine.js";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, type Sandbox, sandbox } from "./helpers.js";

const AAA = { harness: "claude-code", sessionId: "sess-aaaa-1111" };
const BBB = { harness: "claude-code", sessionId: "sess-bbbb-2222" };

async function seen(box: Sandbox, ...refs: SessionRef[]): Promise<void> {
	const engine = await box.engine();
	for (const ref of refs) {
		await engine.todosChanged(ref, [{ content: "a thing", status: "pending" }]);
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		await engine.onIdle(ref);
	}
}

async function scopeFiles(box: Sandbox): Promise<string[]> {
	return (await readdir(path.join(box.worktree, ".boulder", "scopes"))).sort();
}

describe("--session by a unique prefix", () => {
	it("stop and go act on the one session the prefix names, and say its whole id", async () => {
		const box = await sandbox();
		await seen(box, AAA, BBB);
		const before = await scopeFiles(box);

		const stopped = await box.run(["stop", "--session", "sess-bbb", "--harness", "claude-code"]);

		expect(stopped.code).toBe(0);
		expect(stopped.stdout).toContain("claude-code session sess-bbbb-2222");
		expect(await scopeFiles(box)).toEqual(before);
		const engine = await box.engine();
		await engine.turnStarted(BBB, "user");
		await engine.turnEnded(BBB, { outcome: "end" });
		expect((await engine.onIdle(BBB)).reason).toBe("disabled");

		const go = await box.run(["go", "--session", "sess-b"]);
		expect(go.code).toBe(0);
		expect(go.stdout).toContain("claude-code session sess-bbbb-2222");
	});

	it("refuses an ambiguous prefix, listing the sessions it fits, and changes nothing", async () => {
		const box = await sandbox();
		await seen(box, AAA, BBB);
		const before = await scopeFiles(box);
		const ran = await box.run(["stop", "--session", "sess-", "--harness", "claude-code"]);
		expect(ran.code).toBe(2);
		expect(ran.stdout).toBe("");
		expect(ran.stderr).toContain(
			"names 2 claude-code sessions: sess-aaaa-1111 (claude-code), sess-bbbb-2222 (claude-code)",
		);
		expect(await scopeFiles(box)).toEqual(before);
	});

	it("refuses an id boulder has not seen, lists the known ones, and makes no state or phantom session", async () => {
		const box = await sandbox();
		await seen(box, AAA, BBB);
		const before = await scopeFiles(box);
		const ran = await box.run(["stop", "--session", "sess-ccc", "--harness", "claude-code"]);
		expect(ran.code).toBe(2);
		expect(ran.stderr).toContain("Known: sess-aaaa-1111 (claude-code), sess-bbbb-2222 (claude-code)");
		expect(await scopeFiles(box)).toEqual(before);
		const status = JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport;
		expect(JSON.stringify(status)).not.toContain("sess-ccc");
	});

	it("why --session takes a unique prefix, and refuses an unknown one instead of saying 'No decisions yet'", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		await seen(box, AAA, BBB);
		const whole = await box.run(["why", "--session", "sess-bbbb-2222", "--json"]);
		const short = await box.run(["why", "--session", "sess-bbb", "--json"]);
		expect(short.code).toBe(0);
		expect(JSON.parse(short.stdout).length).toBeGreaterThan(0);
		expect(short.stdout).toBe(whole.stdout);

		const unknown = await box.run(["why", "--session", "nope"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stdout).toBe("");
		expect(unknown.stderr).toContain("sess-aaaa-1111 (claude-code), sess-bbbb-2222 (claude-code)");
	});
});

describe("a work by a unique prefix of its id", () => {
	it("pause takes a prefix, refuses an ambiguous or unknown one with the works listed (exit 2)", async () => {
		const box = await sandbox();
		await box.write("a.md", "# Ship alpha\n\n- [ ] one\n");
		await box.write("b.md", "# Ship beta\n\n- [ ] one\n");
		await box.run(["start", "a.md"]);
		await box.run(["start", "b.md"]);

		const ambiguous = await box.run(["pause", "ship"]);
		expect(ambiguous.code).toBe(2);
		expect(ambiguous.stderr).toContain('"ship" names 2 works: ship-alpha (paused, a.md), ship-beta (active, b.md)');

		const unknown = await box.run(["resume", "gamma"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("the works here: ship-alpha (paused, a.md), ship-beta (active, b.md)");

		const paused = await box.run(["pause", "ship-b"]);
		expect(paused.code).toBe(0);
		expect(paused.stdout).toContain("Paused Ship beta");
	});
});

describe("one id in two harnesses", () => {
	it("why takes it (it reads by id), stop asks for --harness", async () => {
		const box = await sandbox();
		await seen(box, { harness: "claude-code", sessionId: "same-1" }, { harness: "opencode", sessionId: "same-1" });
		expect((await box.run(["why", "--session", "same-1"])).code).toBe(0);
		const stop = await box.run(["stop", "--session", "same-1"]);
		expect(stop.code).toBe(2);
		expect(stop.stderr).toContain("add --harness");
		expect((await box.run(["stop", "--session", "same-1", "--harness", "opencode"])).code).toBe(0);
	});
});
