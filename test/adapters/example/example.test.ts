/**
 * Adding a harness is one folder and one registry line: a throwaway "example"
 * adapter, registered beside the real ones, is installed, checked, and rolls
 * a session through the real CLI, the real engine and the real file store,
 * with no edit anywhere else.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ADAPTERS, createRegistry } from "../../../src/adapters/registry.js";
import { readSources, violations } from "../../architecture/imports.js";
import { sandbox } from "../../cli/helpers.js";
import { EXAMPLE_SOURCE, exampleAdapter } from "./adapter.js";

const adapters = createRegistry([...ADAPTERS, exampleAdapter]);

describe("a new harness: one folder and one registry line", () => {
	it("is installed and uninstalled by `boulder install example` / `uninstall`", async () => {
		const box = await sandbox();
		const installed = await box.run(["install", "example"], { adapters });
		expect(installed).toMatchObject({ code: 0 });
		expect(installed.stdout).toContain("Installed the example hook in");
		expect(existsSync(path.join(box.worktree, ".example", "hooks.json"))).toBe(true);
		const removed = await box.run(["uninstall", "example"], { adapters });
		expect(removed.stdout).toContain("Removed the example hook from");
		expect(existsSync(path.join(box.worktree, ".example", "hooks.json"))).toBe(false);
	});

	it("gets its scopes checked from its own declaration", async () => {
		const box = await sandbox();
		const wrong = await box.run(["install", "example", "--user"], { adapters });
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).toContain("example has no --user settings; choose --project");
	});

	it("is listed by `boulder doctor` with its own check", async () => {
		const box = await sandbox();
		await box.run(["install", "example"], { adapters });
		const doctor = await box.run(["doctor", "--json"], { adapters });
		const findings = JSON.parse(doctor.stdout).findings as { check: string; message: string }[];
		expect(findings).toContainEqual(
			expect.objectContaining({ check: "example", message: expect.stringContaining("hook installed") }),
		);
		expect(findings.map((finding) => finding.check)).toEqual(expect.arrayContaining(["claude-code", "opencode"]));
	});

	it("rolls a session through `boulder hook example …` and explains it in `boulder why`", async () => {
		const box = await sandbox();
		const hook = async (event: string, input: unknown) => {
			let stdout = "";
			await exampleAdapter.hook?.run(event, {
				stdin: Readable.from([JSON.stringify(input)]),
				stdout: { write: (chunk: string) => (stdout += chunk) },
				stderr: { write: (chunk: string) => process.stderr.write(chunk) },
				env: box.env,
				cwd: box.worktree,
			});
			return stdout;
		};
		await hook("TodoWrite", {
			session: "s1",
			todos: [
				{ title: "write the parser", state: "done" },
				{ title: "write the printer", state: "todo" },
			],
		});
		const answer = JSON.parse(await hook("Stop", { session: "s1" })) as { continue: string };
		expect(answer.continue).toContain("write the printer");
		const why = await box.run(["why"], { adapters });
		expect(why.stdout).toContain("continued: 1 item(s) still open; continuing with: write the printer");
		const unknown = await box.run(["hook", "nope", "Stop"], { adapters });
		expect(unknown.stderr).toContain(`boulder knows: ${adapters.names().join(", ")}`);
	});

	it("keeps to the layers an adapter may use", async () => {
		const file = {
			file: "adapters/example/adapter.ts",
			text: (await EXAMPLE_SOURCE).replaceAll("../../../src/", "../../"),
		};
		const sources = [...readSources(path.resolve(import.meta.dirname, "../../../src")), file];
		expect(violations(sources)).toEqual([]);
	});
});
