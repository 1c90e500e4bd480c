/**
 * `boulder doctor` says exactly what is wrong and how to fix it (exit 1), and
 * `boulder config` shows each value with where it came from.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, utimes } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DoctorFinding } from "../../src/engine/doctor-types.js";
import { PLAN, sandbox } from "./helpers.js";

describe("boulder doctor", () => {
	it("is happy with a fresh worktree (exit 0)", async () => {
		const box = await sandbox();
		const ran = await box.run(["doctor"]);
		expect(ran.code).toBe(0);
		expect(ran.stdout).toContain("Everything looks right.");
	});

	it("names a corrupt scope file that was moved aside, and how to fix it", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const scope = await box.write(".boulder/scopes/session.claude-code.s-1.json", '{"schemaVersion": 1, "state": {');
		const ref = { harness: "claude-code", sessionId: "s-1" };
		const engine = await box.engine();
		await engine.turnStarted(ref, "user");
		expect(existsSync(scope)).toBe(true);
		const aside = (await readdir(path.dirname(scope))).find((name) => name.includes(".corrupt-"));
		expect(aside).toBeDefined();

		const ran = await box.run(["doctor"]);
		expect(ran.code).toBe(1);
		expect(ran.stdout).toContain(`${scope} was unreadable (corrupt: not JSON`);
		expect(ran.stdout).toContain(`moved aside to ${path.join(path.dirname(scope), aside as string)}`);
		expect(ran.stdout).toContain(`fix: look at ${aside} if you want to know what happened, then delete it`);
		expect(ran.stdout).toContain("1 problem(s) found");
	});

	it("names a bad file still in place without touching it", async () => {
		const box = await sandbox();
		const works = await box.write(".boulder/works.json", JSON.stringify({ schemaVersion: 9, works: {} }));
		const ran = await box.run(["doctor", "--json"]);
		expect(ran.code).toBe(1);
		const { findings } = JSON.parse(ran.stdout) as { findings: DoctorFinding[] };
		expect(findings).toContainEqual(
			expect.objectContaining({
				check: "state",
				level: "problem",
				file: works,
				message: expect.stringContaining("schemaVersion 9 is newer than this boulder knows (2)"),
				fix: expect.stringContaining("upgrade boulder"),
			}),
		);
		expect(existsSync(works)).toBe(true);
	});

	it("names the config file, key and expectation of every bad layer", async () => {
		const box = await sandbox();
		const project = await box.write(
			"boulder.config.json",
			JSON.stringify({ budgets: { autoTurns: 0 }, stagnationLimt: 3 }),
		);
		const user = path.join(box.env.XDG_CONFIG_HOME as string, "boulder", "config.json");
		await box.write(path.relative(box.worktree, user), "{ nope");
		const ran = await box.run(["doctor", "--json"]);
		expect(ran.code).toBe(1);
		const { findings } = JSON.parse(ran.stdout) as { findings: DoctorFinding[] };
		const config = findings.filter((finding) => finding.check === "config");
		expect(config).toContainEqual(
			expect.objectContaining({ file: user, message: expect.stringContaining("is not valid JSON") }),
		);
		expect(config).toContainEqual(
			expect.objectContaining({
				file: project,
				key: "budgets.autoTurns",
				message: expect.stringMatching(/budgets\.autoTurns is 0; expected: .*>=1/),
			}),
		);
		expect(config).toContainEqual(
			expect.objectContaining({ file: project, key: "stagnationLimt", fix: expect.stringContaining("stagnationLimt") }),
		);
		const text = await box.run(["doctor"]);
		expect(text.stdout).toContain(`${project}: budgets.autoTurns is 0; expected:`);
	});

	it("warns about a lock left behind by a process that died, naming it", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const lock = path.join(box.worktree, ".boulder", "works.json.lock");
		await mkdir(lock);
		const longAgo = new Date(Date.now() - 3600_000);
		await utimes(lock, longAgo, longAgo);
		const ran = await box.run(["doctor"]);
		expect(ran.code).toBe(0);
		expect(ran.stdout).toMatch(
			new RegExp(`! state +${lock.replaceAll(".", "\\.")}: lock left behind \\(its holder probably died\\)`),
		);
		expect(ran.stdout).toContain("No problems; 1 warning(s).");
	});

	it("warns about a works file of an older schema version without failing", async () => {
		const box = await sandbox();
		await box.write(
			".boulder/works.json",
			JSON.stringify({ activePlan: "PLAN.md", startedAt: "2026-01-01T00:00:00Z", sessionIds: ["a"] }),
		);
		const ran = await box.run(["doctor"]);
		expect(ran.code).toBe(0);
		expect(ran.stdout).toContain("is a works file at schema v1; this boulder writes v2");
	});
});

describe("boulder config", () => {
	it("shows the effective values and where each came from", async () => {
		const box = await sandbox();
		const project = await box.write("boulder.config.json", JSON.stringify({ stagnationLimit: 5 }));
		const user = path.join(box.env.XDG_CONFIG_HOME as string, "boulder", "config.json");
		await box.write(path.relative(box.worktree, user), JSON.stringify({ stagnationLimit: 4, nextItems: 2 }));

		const ran = await box.run(["config", "--json"]);
		expect(ran.code).toBe(0);
		const out = JSON.parse(ran.stdout) as {
			config: Record<string, unknown>;
			sources: Record<string, string>;
			files: string[];
		};
		expect(out.config).toMatchObject({ stagnationLimit: 5, nextItems: 2, enabled: true });
		expect(out.sources).toMatchObject({
			stagnationLimit: project,
			nextItems: user,
			enabled: "default",
			"budgets.autoTurns": "default",
		});
		expect(out.files).toEqual([user, project]);

		const text = (await box.run(["config"])).stdout;
		expect(text).toMatch(new RegExp(`stagnationLimit\\s+5\\s+${escapeRegExp(project)}`));
		expect(text).toMatch(/budgets\.autoTurns\s+40\s+default/);
	});

	it("fails with the file and key when the config is invalid", async () => {
		const box = await sandbox();
		const project = await box.write("boulder.config.json", JSON.stringify({ nextItems: 0 }));
		const ran = await box.run(["config"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain(`${project} is not a valid boulder config`);
		expect(ran.stderr).toContain("nextItems: 0");
	});

	it("prints the JSON Schema", async () => {
		const box = await sandbox();
		const ran = await box.run(["config", "--json-schema"]);
		expect(ran.code).toBe(0);
		const schema = JSON.parse(ran.stdout) as { properties: Record<string, unknown> };
		expect(Object.keys(schema.properties)).toContain("stagnationLimit");
	});
});

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
