import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkPiExtension } from "../../../src/adapters/pi/doctor.js";
import {
	agentDir,
	EXTENSION_FILE,
	entryFor,
	installPi,
	LINK_ENTRY,
	linkFile,
	settingsFile,
	uninstallPi,
	withOurExtension,
	withoutOurExtension,
} from "../../../src/adapters/pi/install.js";

let dir: string;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;

/** A built copy of boulder at `root` (its package.json and its extension). */
async function fakeBoulder(root: string, version = "0.1.0"): Promise<string> {
	await mkdir(path.join(root, path.dirname(EXTENSION_FILE)), { recursive: true });
	await writeFile(path.join(root, "package.json"), JSON.stringify({ name: "boulder-agent", version }));
	await writeFile(path.join(root, EXTENSION_FILE), "export default function () {}\n");
	return root;
}

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), "boulder-pi-install-"));
	home = path.join(dir, "home");
	project = path.join(dir, "project");
	await mkdir(home, { recursive: true });
	await mkdir(project, { recursive: true });
	env = { HOME: home, XDG_STATE_HOME: path.join(home, ".local", "state") };
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("boulder install pi", () => {
	it("writes a new user settings file, and uninstall takes it away again with the folders it made", async () => {
		const root = await fakeBoulder(path.join(dir, "global", "boulder-agent"));
		const place = { cwd: project, env, scope: "user" as const, root };
		const { report, notes } = await installPi(place);
		const file = path.join(home, ".pi", "agent", "settings.json");
		expect(report).toEqual({ file, action: "installed", backup: null, entries: 1 });
		expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ extensions: [path.join(root, EXTENSION_FILE)] });
		expect(notes[0]).toMatch(/absolute path/);

		expect((await installPi(place)).report.action).toBe("unchanged");
		expect(await uninstallPi(place)).toMatchObject({ action: "removed", entries: 1 });
		expect(existsSync(path.join(home, ".pi"))).toBe(false);
		expect((await uninstallPi(place)).action).toBe("absent");
	});

	it("follows $PI_CODING_AGENT_DIR for the user scope", () => {
		expect(settingsFile("user", { cwd: project, env: { ...env, PI_CODING_AGENT_DIR: "~/agent" } })).toBe(
			path.join(home, "agent", "settings.json"),
		);
	});

	it("reads a file:// URL in $PI_CODING_AGENT_DIR as its path, as pi does, and refuses one that names no local folder", () => {
		const folder = path.join(dir, "pi agent");
		const url = `${pathToFileURL(folder).href}/`;
		expect(settingsFile("user", { cwd: project, env: { ...env, PI_CODING_AGENT_DIR: url } })).toBe(
			path.join(folder, "settings.json"),
		);
		expect(() => agentDir({ ...env, PI_CODING_AGENT_DIR: "file://elsewhere/agent" })).toThrow(/PI_CODING_AGENT_DIR/);
		expect(agentDir({ ...env, PI_CODING_AGENT_DIR: "" })).toBe(path.join(home, ".pi", "agent"));
		expect(agentDir({ ...env, PI_CODING_AGENT_DIR: "rel/agent" })).toBe(path.resolve("rel", "agent"));
	});

	it("keeps every byte of the user's own settings through an install and an uninstall, with a backup", async () => {
		const root = await fakeBoulder(path.join(dir, "global", "boulder-agent"));
		const file = path.join(project, ".pi", "settings.json");
		await mkdir(path.dirname(file));
		const original = '{\n    "theme": "dark",\n    "extensions": [\n        "./mine.ts"\n    ],\n    "n": 1.50\n}\n';
		await writeFile(file, original);
		const place = { cwd: project, env, scope: "project" as const, root };

		const { report } = await installPi(place);
		expect(report.action).toBe("installed");
		expect(await readFile(report.backup as string, "utf8")).toBe(original);
		const installed = await readFile(file, "utf8");
		expect(installed).toContain(`"./mine.ts",\n        ${JSON.stringify(LINK_ENTRY)}\n`);
		expect(installed).toContain('"n": 1.50');

		await uninstallPi(place);
		expect(await readFile(file, "utf8")).toBe(original);
	});

	it("writes no path of this machine in the project file when boulder is installed elsewhere: a per-user link", async () => {
		const root = await fakeBoulder(path.join(dir, "global", "boulder-agent"));
		const { report, notes } = await installPi({ cwd: project, env, scope: "project", root });
		const text = await readFile(report.file, "utf8");
		for (const machinePath of [dir, home, root, path.dirname(process.execPath)])
			expect(text).not.toContain(machinePath);
		expect(JSON.parse(text).extensions).toEqual([LINK_ENTRY]);
		expect(notes[0]).toMatch(/no path of this machine/);
		// The link loads this copy's extension, and the doctor follows it.
		const link = await readFile(linkFile(env), "utf8");
		expect(link).toContain(JSON.stringify(path.join(root, EXTENSION_FILE)));
		const findings = await checkPiExtension({ cwd: project, env }, "0.1.0");
		// Beside the warning about pi's project trust, which a fresh HOME has not saved.
		expect(findings.filter((finding) => !/saved trust/.test(finding.message))).toEqual([
			expect.objectContaining({ level: "ok", message: expect.stringMatching(/project, boulder 0\.1\.0/) }),
		]);
		// A teammate without the link is told, not marked ✓.
		const teammate = { ...env, HOME: path.join(dir, "teammate") };
		const theirs = await checkPiExtension({ cwd: project, env: teammate }, "0.1.0");
		expect(theirs).toContainEqual(expect.objectContaining({ level: "problem", fix: "`boulder install pi --project`" }));
	});

	it("warns about a project file that names a path of this machine (an older install)", async () => {
		const root = await fakeBoulder(path.join(dir, "global", "boulder-agent"));
		const file = settingsFile("project", { cwd: project, env });
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, JSON.stringify({ extensions: [path.join(root, EXTENSION_FILE)] }));
		const findings = await checkPiExtension({ cwd: project, env }, "0.1.0");
		expect(findings).toContainEqual(
			expect.objectContaining({ level: "warn", message: expect.stringMatching(/names a path of this machine/) }),
		);
	});

	it("writes a project entry relative to .pi/ when the project holds boulder, so the file is portable", async () => {
		const root = await fakeBoulder(path.join(project, "node_modules", "boulder-agent"));
		expect(entryFor("project", { cwd: project, env }, root)).toBe(
			"../node_modules/boulder-agent/dist/adapters/pi/extension.js",
		);
		const { notes } = await installPi({ cwd: project, env, scope: "project", root });
		expect(notes.join("\n")).toMatch(/teammates/);
		const findings = await checkPiExtension({ cwd: project, env }, "0.1.0");
		expect(findings).toEqual([
			expect.objectContaining({ level: "warn", message: expect.stringMatching(/no saved trust/) }),
			expect.objectContaining({ level: "ok", message: expect.stringMatching(/project, boulder 0\.1\.0/) }),
		]);
	});

	it("says a project install needs pi's trust: headless runs skip an untrusted project's settings", async () => {
		const root = await fakeBoulder(path.join(project, "node_modules", "boulder-agent"));
		const { notes } = await installPi({ cwd: project, env, scope: "project", root });
		const said = notes.join("\n");
		expect(said).toMatch(/`pi -p`, `--mode json` and `--mode rpc` never ask/);
		expect(said).toMatch(/--approve/);
		expect(said).toMatch(/boulder doctor/);
	});

	it("replaces an older entry (a moved copy) rather than adding a second", () => {
		const text = '{"extensions": ["/old/place/dist/adapters/pi/extension.js", "other.ts"]}';
		const next = withOurExtension(text, "settings.json", "/new/dist/adapters/pi/extension.js");
		expect(JSON.parse(next.text)).toEqual({ extensions: ["other.ts", "/new/dist/adapters/pi/extension.js"] });
		expect(next.removed).toBe(1);
		expect(JSON.parse(withoutOurExtension(next.text, "settings.json").text)).toEqual({ extensions: ["other.ts"] });
	});

	it("refuses settings it cannot read, naming the file, and leaves them untouched", async () => {
		const root = await fakeBoulder(path.join(dir, "b"));
		const file = path.join(project, ".pi", "settings.json");
		await mkdir(path.dirname(file));
		await writeFile(file, '{"extensions": "x.ts"}');
		await expect(installPi({ cwd: project, env, scope: "project", root })).rejects.toThrow(
			/"extensions" in .*settings\.json is not a list/,
		);
		await writeFile(file, "{ // no comments in pi's settings\n}");
		await expect(installPi({ cwd: project, env, scope: "project", root })).rejects.toThrow(/is not valid JSON/);
		expect(await readFile(file, "utf8")).toBe("{ // no comments in pi's settings\n}");
	});

	it("refuses to install a copy of boulder that was never built", async () => {
		await expect(installPi({ cwd: project, env, scope: "user", root: path.join(dir, "nothing") })).rejects.toThrow(
			/was not built/,
		);
	});
});

describe("boulder doctor's pi check", () => {
	it("says when boulder is not installed for pi", async () => {
		expect(await checkPiExtension({ cwd: project, env }, "0.1.0")).toEqual([
			expect.objectContaining({
				level: "ok",
				message: expect.stringMatching(/not in this project's or your user pi settings/),
			}),
		]);
	});

	it("finds an entry whose file is gone, and one of another version", async () => {
		const gone = await fakeBoulder(path.join(dir, "gone"));
		await installPi({ cwd: project, env, scope: "user", root: gone });
		await rm(gone, { recursive: true });
		const older = await fakeBoulder(path.join(dir, "older"), "0.0.9");
		await installPi({ cwd: project, env, scope: "project", root: older });
		const findings = await checkPiExtension({ cwd: project, env }, "0.1.0");
		expect(findings.map((f) => f.level)).toEqual(["warn", "warn", "problem", "warn"]);
		expect(findings[0]?.message).toMatch(/no saved trust/);
		expect(findings[1]?.message).toMatch(/loads boulder 0\.0\.9/);
		expect(findings[2]?.message).toMatch(/does not exist/);
		expect(findings[3]?.message).toMatch(/listed more than once/);
	});

	it("checks pi's trust in a project that lists boulder: saved for it or a parent, refused, or pi's default", async () => {
		const root = await fakeBoulder(path.join(project, "node_modules", "boulder-agent"));
		await installPi({ cwd: project, env, scope: "project", root });
		const agent = path.join(home, ".pi", "agent");
		const trustOf = async () => (await checkPiExtension({ cwd: project, env }, "0.1.0"))[0];
		await mkdir(agent, { recursive: true });
		const real = await realpath(project);
		await writeFile(path.join(agent, "trust.json"), JSON.stringify({ [path.dirname(real)]: true }));
		expect(await trustOf()).toMatchObject({ level: "ok", message: expect.stringMatching(/pi trusts this project/) });
		await writeFile(path.join(agent, "trust.json"), JSON.stringify({ [real]: false, [path.dirname(real)]: true }));
		expect(await trustOf()).toMatchObject({ level: "problem", message: expect.stringMatching(/does not trust/) });
		await writeFile(path.join(agent, "trust.json"), "{}");
		await writeFile(path.join(agent, "settings.json"), JSON.stringify({ defaultProjectTrust: "always" }));
		expect(await trustOf()).toMatchObject({ level: "ok", message: expect.stringMatching(/"always"/) });
		await writeFile(path.join(agent, "trust.json"), "not json");
		await writeFile(path.join(agent, "settings.json"), "{}");
		expect(await trustOf()).toMatchObject({ level: "warn", message: expect.stringMatching(/trust\.json is not JSON/) });
	});
});
