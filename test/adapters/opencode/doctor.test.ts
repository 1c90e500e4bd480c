import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { checkOpenCodePlugin } from "../../../src/adapters/opencode/doctor.js";
import { linkOpenCodeCache, PLUGIN_FILE } from "../../../src/adapters/opencode/install.js";

async function tempDir(): Promise<string> {
	return mkdtemp(path.join(os.tmpdir(), "boulder-oc-doctor-"));
}

async function boulderCopy(version: string): Promise<string> {
	const root = await tempDir();
	await mkdir(path.dirname(path.join(root, PLUGIN_FILE)), { recursive: true });
	await writeFile(path.join(root, PLUGIN_FILE), "");
	await writeFile(path.join(root, "package.json"), JSON.stringify({ name: "boulder-agent", version }));
	return pathToFileURL(path.join(root, PLUGIN_FILE)).href;
}

async function place(project: Record<string, unknown> | string | null, user: Record<string, unknown> | null = null) {
	const cwd = await tempDir();
	const home = await tempDir();
	if (project !== null) {
		await writeFile(path.join(cwd, "opencode.json"), typeof project === "string" ? project : JSON.stringify(project));
	}
	if (user !== null) {
		await mkdir(path.join(home, ".config", "opencode"), { recursive: true });
		await writeFile(path.join(home, ".config", "opencode", "opencode.jsonc"), JSON.stringify(user));
	}
	return { cwd, env: { HOME: home } };
}

describe("boulder doctor's OpenCode check", () => {
	it("says where the plugin is listed and that it is this version", async () => {
		const entry = await boulderCopy("1.2.3");
		const findings = await checkOpenCodePlugin(await place({ plugin: ["other", entry] }), "1.2.3");
		expect(findings).toEqual([
			expect.objectContaining({
				level: "ok",
				message: expect.stringMatching(/plugin listed in .*opencode\.json \(project, boulder 1\.2\.3\)/),
			}),
		]);
	});

	it("warns about another version, and about a plugin listed in both configs", async () => {
		const entry = await boulderCopy("1.0.0");
		const findings = await checkOpenCodePlugin(await place({ plugin: [entry] }, { plugin: [entry] }), "1.2.3");
		expect(findings.map((finding) => finding.level)).toEqual(["warn", "warn", "warn"]);
		expect(findings[0]?.message).toMatch(/loads boulder 1\.0\.0 from .*; this is 1\.2\.3/);
		expect(findings[0]?.fix).toBe("`boulder install opencode --project`");
		expect(findings[2]?.message).toMatch(/listed more than once/);
	});

	it("reports an entry whose plugin file is gone as a problem, with the fix", async () => {
		const gone = pathToFileURL(path.join(await tempDir(), PLUGIN_FILE)).href;
		const findings = await checkOpenCodePlugin(await place({ plugin: [gone] }), "1.2.3");
		expect(findings).toEqual([
			expect.objectContaining({ level: "problem", fix: "`boulder install opencode --project`" }),
		]);
	});

	it("reports a config OpenCode could not read either, and says nothing is installed otherwise", async () => {
		const broken = await checkOpenCodePlugin(await place("{ nope"), "1.2.3");
		expect(broken[0]).toMatchObject({ level: "problem", message: expect.stringMatching(/cannot be read/) });
		const none = await checkOpenCodePlugin(await place(null), "1.2.3");
		expect(none).toEqual([
			expect.objectContaining({ level: "ok", fix: expect.stringMatching(/boulder install opencode/) }),
		]);
	});

	it("reads the version of a package-name entry in OpenCode's package cache, linked or downloaded", async () => {
		const where = await place({ plugin: ["boulder-agent"] });
		const copy = path.dirname(path.dirname(path.dirname(path.dirname(fileURLToPath(await boulderCopy("1.2.3"))))));
		await linkOpenCodeCache(where.env, copy);

		expect(await checkOpenCodePlugin(where, "1.2.3")).toEqual([
			expect.objectContaining({
				level: "ok",
				message: expect.stringMatching(/by package name \(boulder 1\.2\.3, from .*linked in/),
			}),
		]);
		expect(await checkOpenCodePlugin(where, "2.0.0")).toEqual([
			expect.objectContaining({
				level: "warn",
				message: expect.stringMatching(/loads boulder 1\.2\.3 by package name .*; this is 2\.0\.0/),
				fix: "`boulder install opencode --project`",
			}),
		]);
	});

	it("warns that OpenCode will go to the npm registry when its cache has no boulder, with the command that links one", async () => {
		const findings = await checkOpenCodePlugin(await place({ plugin: ["boulder-agent"] }), "1.2.3");

		expect(findings).toEqual([
			expect.objectContaining({
				level: "warn",
				message: expect.stringMatching(/package cache has none .*download it from the npm registry/),
				fix: "`boulder install opencode --project` (links the cache to this copy of boulder)",
			}),
		]);
	});

	it("reports a cache link to a copy that was moved or removed", async () => {
		const where = await place({ plugin: ["boulder-agent"] });
		const copy = path.dirname(path.dirname(path.dirname(path.dirname(fileURLToPath(await boulderCopy("1.2.3"))))));
		await linkOpenCodeCache(where.env, copy);
		await rm(copy, { recursive: true });

		expect(await checkOpenCodePlugin(where, "1.2.3")).toEqual([
			expect.objectContaining({
				level: "problem",
				message: expect.stringMatching(/points at .*, which does not exist \(moved or removed\)/),
				fix: "`boulder install opencode --project`",
			}),
		]);
	});
});
