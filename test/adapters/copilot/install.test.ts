import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { doctorCheck } from "../../../src/adapters/command-hook/doctor.js";
import { installerOf, ownFileText } from "../../../src/adapters/command-hook/install.js";
import { commandReader, hookCommand as spelled } from "../../../src/adapters/command-hook/spelling.js";
import { doctor, hooksFile, install, REGISTRATIONS } from "../../../src/adapters/copilot/dialect.js";
import { backupFile } from "../../../src/adapters/shared/config-file.js";
import { type HookForm, PORTABLE } from "../../../src/adapters/shared/hook-form.js";

const hookCommand = (form: HookForm, event: string) => spelled(install.command, form, event);
const parseOurCommand = commandReader(install.command);

const { install: installCopilot, uninstall: uninstallCopilot } = installerOf(install);
const checkCopilotHooks = doctorCheck(install, doctor).hooks;
const hooksFileText = (form: HookForm) => ownFileText(install, form);

let dir: string;
let root: string;
let place: { cwd: string; env: NodeJS.ProcessEnv; root: string };

beforeEach(async () => {
	dir = await mkdtemp(path.join(os.tmpdir(), "boulder-copilot-install-"));
	root = path.join(dir, "pkg");
	await mkdir(path.join(root, "dist", "hook"), { recursive: true });
	await writeFile(path.join(root, "dist", "hook", "boulder-hook.cjs"), "// the hook");
	await writeFile(path.join(root, "package.json"), JSON.stringify({ name: "boulder-agent", version: "1.2.3" }));
	const cwd = path.join(dir, "project");
	await mkdir(cwd, { recursive: true });
	const home = path.join(dir, "home");
	place = {
		cwd,
		root,
		env: { HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_STATE_HOME: path.join(home, "state"), PATH: "" },
	};
});

/** Every file under `folder`, with its bytes. */
async function snapshot(folder: string): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
		const file = path.join(entry.parentPath, entry.name);
		files[path.relative(folder, file)] = entry.isFile() ? await readFile(file, "utf8") : "(folder)";
	}
	return files;
}

describe("boulder install copilot", () => {
	it("adds its own .github/hooks/boulder.json and takes it away again, leaving the project byte for byte", async () => {
		await mkdir(path.join(place.cwd, "src"), { recursive: true });
		await writeFile(path.join(place.cwd, "src", "a.ts"), "export {};\n");
		const before = await snapshot(place.cwd);
		const installed = await installCopilot({ ...place, scope: "project" });
		expect(installed.report).toMatchObject({ action: "installed", entries: REGISTRATIONS.length, backup: null });
		const file = hooksFile("project", place);
		expect(installed.report.file).toBe(file);
		const value = JSON.parse(await readFile(file, "utf8"));
		expect(value.version).toBe(1);
		expect(Object.keys(value.hooks)).toEqual(REGISTRATIONS.map((registration) => registration.event));
		expect(JSON.stringify(value)).not.toContain(dir);
		expect((await uninstallCopilot({ ...place, scope: "project" })).action).toBe("removed");
		expect(await snapshot(place.cwd)).toEqual(before);
	});

	it("keeps the user's other hook files and an existing .github untouched", async () => {
		const other = path.join(place.cwd, ".github", "hooks", "audit.json");
		await mkdir(path.dirname(other), { recursive: true });
		const theirs = '{ "version": 1, "hooks": { "agentStop": [ { "type": "command", "bash": "./audit.sh" } ] } }';
		await writeFile(other, theirs);
		const before = await snapshot(place.cwd);
		await installCopilot({ ...place, scope: "project" });
		expect(await readFile(other, "utf8")).toBe(theirs);
		await uninstallCopilot({ ...place, scope: "project" });
		expect(await snapshot(place.cwd)).toEqual(before);
	});

	it("is idempotent: a second install changes nothing", async () => {
		await installCopilot({ ...place, scope: "project" });
		const text = await readFile(hooksFile("project", place), "utf8");
		const again = await installCopilot({ ...place, scope: "project" });
		expect(again.report.action).toBe("unchanged");
		expect(await readFile(hooksFile("project", place), "utf8")).toBe(text);
	});

	it("links this copy for the user, so the portable hooks find it", async () => {
		const installed = await installCopilot({ ...place, scope: "project" });
		const link = path.join(place.env.XDG_DATA_HOME as string, "boulder", "boulder-hook.cjs");
		expect(await readFile(link, "utf8")).toContain(JSON.stringify(path.join(root, "dist", "hook", "boulder-hook.cjs")));
		expect(installed.notes.join("\n")).toMatch(/no path of this machine[\s\S]*--autopilot/);
	});

	it("pins the user scope to this node and this copy, in $COPILOT_HOME/hooks", async () => {
		const copilotHome = path.join(dir, "copilot-home");
		const user = { ...place, env: { ...place.env, COPILOT_HOME: copilotHome } };
		const installed = await installCopilot({ ...user, scope: "user" });
		expect(installed.report.file).toBe(path.join(copilotHome, "hooks", "boulder.json"));
		const text = await readFile(installed.report.file, "utf8");
		expect(text).toContain(process.execPath);
		expect(text).toContain("--boulder-hook=1.2.3");
		expect(await checkCopilotHooks(user, "1.2.3")).toEqual([
			expect.objectContaining({ level: "ok", message: expect.stringMatching(/pinned to boulder 1\.2\.3/) }),
		]);
		expect(await checkCopilotHooks(user, "2.0.0")).toContainEqual(
			expect.objectContaining({ level: "warn", message: expect.stringMatching(/run boulder 1\.2\.3/) }),
		);
	});

	it("replaces an older install of its own, keeping the old file out of the way", async () => {
		const file = hooksFile("project", place);
		await mkdir(path.dirname(file), { recursive: true });
		const old = hooksFileText({ node: "/old/node", bundle: "/old/boulder-hook.cjs", version: "0.0.1" });
		await writeFile(file, old);
		const updated = await installCopilot({ ...place, scope: "project" });
		expect(updated.report.action).toBe("updated");
		expect(updated.report.backup).toBe(backupFile(file, place.env));
		expect(await readFile(updated.report.backup as string, "utf8")).toBe(old);
		expect(await readdir(path.dirname(file))).toEqual(["boulder.json"]);
	});

	it("refuses a boulder.json that holds anyone else's hooks, or is not JSON, and leaves it as it was", async () => {
		const file = hooksFile("project", place);
		await mkdir(path.dirname(file), { recursive: true });
		for (const text of ['{"version":1,"hooks":{"agentStop":[{"type":"command","bash":"./mine.sh"}]}}', "{ not json"]) {
			await writeFile(file, text);
			await expect(installCopilot({ ...place, scope: "project" })).rejects.toThrow(file);
			await expect(uninstallCopilot({ ...place, scope: "project" })).rejects.toThrow(file);
			expect(await readFile(file, "utf8")).toBe(text);
		}
		expect((await checkCopilotHooks(place, "1.2.3"))[0]).toMatchObject({ level: "problem", file });
	});

	it("says there is nothing to remove when it was never installed", async () => {
		expect((await uninstallCopilot({ ...place, scope: "project" })).action).toBe("absent");
		expect(existsSync(path.join(place.cwd, ".github"))).toBe(false);
	});
});

describe("Copilot hook commands", () => {
	it("reads back both forms of every command it writes", () => {
		for (const { event } of REGISTRATIONS) {
			expect(parseOurCommand(hookCommand(PORTABLE, event))).toEqual({ form: "portable", event });
			const pinned = { node: "/opt/my node/bin/node", bundle: "/it's/dist/hook/boulder-hook.cjs", version: "1.2.3" };
			expect(parseOurCommand(hookCommand(pinned, event))).toEqual({ form: "pinned", event, ...pinned });
		}
		expect(parseOurCommand("./audit.sh agentStop")).toBeNull();
	});

	it("finds the project's devDependency first, as the shell does, and no path of this machine", () => {
		const command = hookCommand(PORTABLE, "agentStop");
		expect(command).toMatch(/^h="\$COPILOT_PROJECT_DIR\/node_modules\/boulder-agent\/dist\/hook\/boulder-hook\.cjs"/);
		expect(command).toContain("exec boulder-hook copilot agentStop --boulder-hook=portable");
		expect(command.endsWith("exit 0")).toBe(true);
	});
});
