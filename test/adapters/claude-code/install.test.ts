import { existsSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { hookCommand, REGISTRATIONS } from "../../../src/adapters/claude-code/dialect.js";
import {
	claudeConfigDir,
	formFor,
	hookLinkFile,
	installClaudeCode,
	installClaudeCodeWithNotes,
	ourEntries,
	settingsFile,
	uninstallClaudeCode,
	withOurHooks,
	withoutOurHooks,
} from "../../../src/adapters/claude-code/install.js";
import { backupFile } from "../../../src/adapters/shared/config-file.js";
import { type HookProgram, PORTABLE } from "../../../src/adapters/shared/hook-form.js";
import { hookLinkTarget } from "../../../src/adapters/shared/hook-link.js";
import { tempDir } from "./helpers.js";

const FILE = "/p/.claude/settings.json";

let dir: string;
let program: HookProgram;

beforeEach(async () => {
	dir = await tempDir("boulder-install-");
	const bundle = path.join(dir, "pkg", "dist", "hook", "claude-code.cjs");
	await mkdir(path.dirname(bundle), { recursive: true });
	await writeFile(bundle, "// the hook");
	program = { node: "/usr/local/bin/node", bundle, version: "1.2.3" };
	await writeFile(path.join(dir, "pkg", "package.json"), JSON.stringify({ name: "boulder-agent", version: "1.2.3" }));
});

/** A user's settings, laid out by hand the way people do: odd spacing, a compact array, their own hooks. */
const USERS_SETTINGS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test:*)", "Read"],   "deny": [] },
    "env": {"FOO": "b\\u00e4r", "N": 1.50},
    "hooks": {
        "Stop": [
            {
                "hooks": [ { "type": "command", "command": "~/bin/notify.sh stop" } ]
            }
        ],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}
        ]
    },
    "statusLine": {"type": "command", "command": "line.sh"}
}
`;

describe("merging boulder's hooks into settings text", () => {
	it("keeps every byte of the user's settings and hooks, and adds one group per event", () => {
		const { text, changed } = withOurHooks(USERS_SETTINGS, FILE, program);

		expect(changed).toBe(true);
		const settings = JSON.parse(text);
		expect(
			ourEntries(settings)
				.map((entry) => entry.event)
				.sort(),
		).toEqual(REGISTRATIONS.map((r) => r.event).sort());
		expect(settings.hooks.Stop[0].hooks[0].command).toBe("~/bin/notify.sh stop");
		expect(settings.hooks.PreToolUse[0]).toEqual({
			matcher: "Bash",
			hooks: [{ type: "command", command: "guard.sh" }],
		});
		expect(settings.hooks.PreToolUse).toHaveLength(2);
		for (const untouched of [
			`"permissions": { "allow": ["Bash(npm test:*)", "Read"],   "deny": [] },`,
			`"env": {"FOO": "b\\u00e4r", "N": 1.50},`,
			`{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}`,
			`"statusLine": {"type": "command", "command": "line.sh"}\n}\n`,
		]) {
			expect(text).toContain(untouched);
		}
	});

	it("matches the file's indentation when it adds a group", () => {
		const { text } = withOurHooks(USERS_SETTINGS, FILE, program);

		expect(text).toContain(`            },\n            {\n                "hooks": [\n                    {\n`);
	});

	it("gives the original bytes back when the hooks are taken out again", () => {
		const installed = withOurHooks(USERS_SETTINGS, FILE, program).text;

		expect(withoutOurHooks(installed, FILE).text).toBe(USERS_SETTINGS);
	});

	it("is idempotent: installing twice changes nothing the second time", () => {
		const once = withOurHooks(USERS_SETTINGS, FILE, program).text;

		const twice = withOurHooks(once, FILE, program);

		expect(twice.changed).toBe(false);
		expect(twice.text).toBe(once);
	});

	it("replaces an older install's entries instead of adding a second set", () => {
		const old = withOurHooks(USERS_SETTINGS, FILE, {
			...program,
			version: "0.9.0",
			bundle: "/old/place/claude-code.js",
		}).text;

		const { text, removed } = withOurHooks(old, FILE, program);

		expect(removed).toBeGreaterThan(0);
		const entries = ourEntries(JSON.parse(text));
		expect(entries).toHaveLength(REGISTRATIONS.length);
		expect(new Set(entries.map((entry) => (entry.form === "pinned" ? entry.version : entry.form)))).toEqual(
			new Set(["1.2.3"]),
		);
		expect(withoutOurHooks(text, FILE).text).toBe(USERS_SETTINGS);
	});

	it("lays out a new hooks object with the file's own indentation", () => {
		const fourSpaces = '{\n    "model": "opus"\n}\n';

		const { text } = withOurHooks(fourSpaces, FILE, program);

		expect(text).toMatch(/^\{\n {4}"model": "opus",\n {4}"hooks": \{\n {8}"SessionStart": \[\n {12}\{\n {16}"hooks"/);
		expect(withoutOurHooks(text, FILE).text).toBe(fourSpaces);
	});

	it("keeps tabs and CRLF line endings", () => {
		const crlf =
			'{\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"Stop": [\r\n\t\t\t{"hooks": []}\r\n\t\t]\r\n\t}\r\n}\r\n';

		const { text } = withOurHooks(crlf, FILE, program);

		expect(text.replaceAll("\r\n", "")).not.toContain("\n");
		expect(text).toContain('\t\t\t{"hooks": []},\r\n\t\t\t{\r\n\t\t\t\t"hooks": [\r\n\t\t\t\t\t{');
		expect(withoutOurHooks(text, FILE).text).toBe(crlf);
	});

	it("keeps a one-line file on one line", () => {
		const compact = '{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}';

		const { text } = withOurHooks(compact, FILE, program);

		expect(text).not.toContain("\n");
		expect(withoutOurHooks(text, FILE).text).toBe(compact);
	});

	it("creates tidy settings from nothing, an empty file or an empty object", () => {
		for (const start of ["", "  \n", "{}\n"]) {
			const { text } = withOurHooks(start, FILE, program);
			expect(ourEntries(JSON.parse(text))).toHaveLength(REGISTRATIONS.length);
			expect(text).toMatch(/^\{\n {2}"hooks": \{\n {4}"SessionStart": \[/);
		}
		expect(withoutOurHooks(withOurHooks("{}\n", FILE, program).text, FILE).text).toBe("{}\n");
	});

	it("installs a command that runs the bundled hook by absolute path and carries the marker", () => {
		const settings = JSON.parse(withOurHooks("{}", FILE, program).text);

		expect(settings.hooks.Stop[0].hooks[0]).toEqual({
			type: "command",
			command: `/usr/local/bin/node ${program.bundle} Stop --boulder-hook=1.2.3`,
			timeout: 900,
		});
		expect(settings.hooks.PostToolUse[0].matcher).toBe("TodoWrite|TaskCreate|TaskUpdate|TaskGet|TaskList|Agent|Task");
	});

	it("refuses settings that are not valid JSON, naming the file and the place", () => {
		for (const bad of ['{"model": "opus",}', "{ // comment\n}", '{"a": 1', "[1]", '"text"']) {
			expect(() => withOurHooks(bad, FILE, program)).toThrow(
				expect.objectContaining({ code: "settings-invalid", message: expect.stringContaining(FILE) }),
			);
		}
		expect(() => withOurHooks('{"model": "opus",}', FILE, program)).toThrow(/line 1, column 18/);
	});

	it("refuses hooks or an event list of the wrong shape rather than guess", () => {
		expect(() => withOurHooks('{"hooks": []}', FILE, program)).toThrow(/"hooks" .* is not an object/);
		expect(() => withOurHooks('{"hooks": {"Stop": {}}}', FILE, program)).toThrow(/"hooks.Stop" .* is not a list/);
	});
});

describe("taking boulder's hooks out", () => {
	it("removes exactly boulder's entries, also one the user moved into their own group", () => {
		const ours = hookCommand(program, "Stop");
		const mixed = JSON.stringify(
			{
				hooks: {
					Stop: [
						{
							hooks: [
								{ type: "command", command: "mine.sh" },
								{ type: "command", command: ours },
							],
						},
					],
					Notification: [{ hooks: [{ type: "command", command: "notify-boulder-fans.sh" }] }],
				},
			},
			null,
			2,
		);

		const { text, removed } = withoutOurHooks(mixed, FILE);

		expect(removed).toBe(1);
		expect(JSON.parse(text)).toEqual({
			hooks: {
				Stop: [{ hooks: [{ type: "command", command: "mine.sh" }] }],
				Notification: [{ hooks: [{ type: "command", command: "notify-boulder-fans.sh" }] }],
			},
		});
	});

	it("drops an empty event list or hooks object that only boulder's entries filled (the same to Claude Code)", () => {
		const empty = '{\n  "hooks": {\n    "Stop": []\n  }\n}\n';

		const back = withoutOurHooks(withOurHooks(empty, FILE, program).text, FILE).text;

		expect(back).toBe("{}\n");
	});

	it("leaves a file without boulder's hooks as it is", () => {
		expect(withoutOurHooks(USERS_SETTINGS, FILE)).toMatchObject({ text: USERS_SETTINGS, removed: 0, changed: false });
	});

	it("round-trips any settings without empty hook lists: install then uninstall gives the same bytes", () => {
		const json = fc.jsonValue({ maxDepth: 3 });
		const hooks = fc.dictionary(
			fc.constantFrom("Stop", "PreToolUse", "Notification", "SessionStart"),
			fc.array(fc.record({ hooks: fc.array(fc.record({ type: fc.constant("command"), command: fc.string() })) }), {
				minLength: 1,
			}),
			{ minKeys: 1 },
		);
		fc.assert(
			fc.property(
				fc.dictionary(
					fc.string().filter((key) => key !== "hooks" && key !== "__proto__"),
					json,
				),
				fc.option(hooks, { nil: undefined }),
				fc.constantFrom(0, 2, 4, "\t"),
				(rest, userHooks, indent) => {
					const settings = userHooks === undefined ? rest : { ...rest, hooks: userHooks };
					const text = `${JSON.stringify(settings, null, indent)}\n`;
					const installed = withOurHooks(text, FILE, program).text;
					expect(ourEntries(JSON.parse(installed))).toHaveLength(REGISTRATIONS.length);
					expect(withoutOurHooks(installed, FILE).text).toBe(text);
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("the portable form, for the committed project file", () => {
	it("names no path of any machine, runs boulder's hook program for every event, and reads back as boulder's", () => {
		const text = withOurHooks("{}", FILE, PORTABLE).text;

		expect(text).not.toMatch(/"\/|\/usr|\/home|\/tmp|[A-Z]:\\\\/);
		const entries = ourEntries(JSON.parse(text));
		expect(entries.map((entry) => entry.event).sort()).toEqual(REGISTRATIONS.map((r) => r.event).sort());
		expect(new Set(entries.map((entry) => entry.form))).toEqual(new Set(["portable"]));
	});

	it("replaces pinned entries (and pinned ones replace it), keeping the user's settings byte for byte", () => {
		const pinned = withOurHooks(USERS_SETTINGS, FILE, program).text;

		const portable = withOurHooks(pinned, FILE, PORTABLE);
		const back = withOurHooks(portable.text, FILE, program);

		expect(portable.removed).toBe(REGISTRATIONS.length);
		expect(ourEntries(JSON.parse(portable.text))).toHaveLength(REGISTRATIONS.length);
		expect(back.text).toBe(pinned);
		expect(withoutOurHooks(portable.text, FILE).text).toBe(USERS_SETTINGS);
	});

	it("is the project scope's form; local and user settings pin this node and this copy", () => {
		const root = path.join(dir, "pkg");

		expect(formFor("project", root)).toBe(PORTABLE);
		for (const scope of ["local", "user"] as const) {
			expect(formFor(scope, root)).toMatchObject({ node: process.execPath, bundle: program.bundle });
		}
	});
});

describe("a byte order mark", () => {
	it("is read past and kept: install and uninstall work, and give the same bytes back", () => {
		const withBom = `\uFEFF${USERS_SETTINGS}`;

		const installed = withOurHooks(withBom, FILE, PORTABLE);
		const removed = withoutOurHooks(installed.text, FILE);

		expect(installed.text.startsWith("\uFEFF")).toBe(true);
		expect(ourEntries(JSON.parse(installed.text.slice(1)))).toHaveLength(REGISTRATIONS.length);
		expect(removed.text).toBe(withBom);
	});

	it("in a file on disk does not stop the installer", async () => {
		const cwd = path.join(dir, "proj");
		const file = settingsFile("local", { cwd, env: {} });
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, '\uFEFF{"model": "opus"}\n');
		const place = { cwd, env: { HOME: path.join(dir, "home") } };

		await installClaudeCode({ ...place, scope: "local", program });
		await uninstallClaudeCode({ ...place, scope: "local" });

		expect(await readFile(file, "utf8")).toBe('\uFEFF{"model": "opus"}\n');
	});
});

describe("installing into the settings files", () => {
	const home = () => path.join(dir, "home");
	const env = () => ({ HOME: home() });
	const stateOf = () => path.join(home(), ".local", "state", "boulder", "install-backups");

	it("writes the project, local or user file, honouring CLAUDE_CONFIG_DIR", () => {
		const place = { cwd: path.join(dir, "proj"), env: env() };
		expect(settingsFile("project", place)).toBe(path.join(dir, "proj", ".claude", "settings.json"));
		expect(settingsFile("local", place)).toBe(path.join(dir, "proj", ".claude", "settings.local.json"));
		expect(settingsFile("user", place)).toBe(path.join(dir, "home", ".claude", "settings.json"));
		expect(settingsFile("user", { ...place, env: { ...env(), CLAUDE_CONFIG_DIR: "/cfg" } })).toBe("/cfg/settings.json");
	});

	it("finds the config folder as Claude Code does: an empty CLAUDE_CONFIG_DIR is the working folder, ~ is no home", () => {
		expect(claudeConfigDir({ HOME: "/h" })).toBe("/h/.claude");
		expect(claudeConfigDir({ HOME: "/h", CLAUDE_CONFIG_DIR: "" })).toBe(process.cwd());
		expect(settingsFile("user", { cwd: "/p", env: { HOME: "/h", CLAUDE_CONFIG_DIR: "" } })).toBe("/p/settings.json");
		expect(settingsFile("user", { cwd: "/p", env: { HOME: "/h", CLAUDE_CONFIG_DIR: "c" } })).toBe("/p/c/settings.json");
		expect(claudeConfigDir({ HOME: "/h", CLAUDE_CONFIG_DIR: "~/c" })).toBe(path.resolve("~", "c"));
		expect(claudeConfigDir({ HOME: "/h", CLAUDE_CONFIG_DIR: "rel/c/" })).toBe(path.resolve("rel", "c"));
		expect(claudeConfigDir({ HOME: "/h", CLAUDE_CONFIG_DIR: " /c" })).toBe(path.resolve(" /c"));
	});

	it("keeps one backup per file in the user's state folder, none next to the settings, and writes nothing when nothing changes", async () => {
		const cwd = path.join(dir, "proj");
		const file = path.join(cwd, ".claude", "settings.json");
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, USERS_SETTINGS);
		await chmod(file, 0o640);

		const first = await installClaudeCode({ scope: "project", cwd, env: env(), program });
		const second = await installClaudeCode({ scope: "project", cwd, env: env(), program });
		const third = await installClaudeCode({
			scope: "project",
			cwd,
			env: env(),
			program: { ...program, version: "2.0.0" },
		});

		expect(first).toMatchObject({ action: "installed", backup: backupFile(file, env()) });
		expect(path.dirname(first.backup as string)).toBe(stateOf());
		expect((await stat(file)).mode & 0o777).toBe(0o640);
		expect(second).toEqual({ file, action: "unchanged", backup: null, entries: 0 });
		expect(third).toMatchObject({ action: "updated", backup: first.backup });
		expect(await readFile(third.backup as string, "utf8")).toBe(withOurHooks(USERS_SETTINGS, FILE, program).text);
		expect(await readdir(path.dirname(file))).toEqual(["settings.json"]);
		expect(await readdir(stateOf())).toEqual([path.basename(first.backup as string)]);
	});

	it("puts the backups under $BOULDER_STATE_HOME or $XDG_STATE_HOME when set", () => {
		expect(backupFile("/p/.claude/settings.json", { BOULDER_STATE_HOME: "/s" })).toMatch(
			/^\/s\/install-backups\/settings\.json-[0-9a-f]{16}$/,
		);
		expect(backupFile("/p/.claude/settings.json", { XDG_STATE_HOME: "/x" })).toMatch(
			/^\/x\/boulder\/install-backups\/settings\.json-/,
		);
		expect(backupFile("/a/settings.json", {})).not.toBe(backupFile("/b/settings.json", {}));
	});

	it("removes at uninstall a file it created, with the folder it made, and leaves no backup behind", async () => {
		const cwd = path.join(dir, "proj");
		await mkdir(cwd);

		const installed = await installClaudeCode({ scope: "project", cwd, env: env(), program });
		await installClaudeCode({ scope: "project", cwd, env: env(), program: { ...program, version: "2.0.0" } });
		const removed = await uninstallClaudeCode({ scope: "project", cwd, env: env() });

		expect(installed).toMatchObject({ action: "installed", backup: null });
		expect(removed).toMatchObject({ action: "removed", backup: null, entries: REGISTRATIONS.length });
		expect(await readdir(cwd)).toEqual([]);
		expect(existsSync(stateOf())).toBe(false);
	});

	it("keeps a file it created once the user put their own settings in it", async () => {
		const cwd = path.join(dir, "proj");
		const report = await installClaudeCode({ scope: "local", cwd, env: env(), program });
		const settings = JSON.parse(await readFile(report.file, "utf8"));
		await writeFile(report.file, `${JSON.stringify({ model: "opus", ...settings }, null, 2)}\n`);

		await uninstallClaudeCode({ scope: "local", cwd, env: env() });
		await installClaudeCode({ scope: "local", cwd, env: env(), program });
		await uninstallClaudeCode({ scope: "local", cwd, env: env() });

		expect(JSON.parse(await readFile(report.file, "utf8"))).toEqual({ model: "opus" });
	});

	it("leaves {} in a file that held {} before boulder came", async () => {
		const cwd = path.join(dir, "proj");
		const file = settingsFile("local", { cwd, env: env() });
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, "{}\n");

		await installClaudeCode({ scope: "local", cwd, env: env(), program });
		await uninstallClaudeCode({ scope: "local", cwd, env: env() });

		expect(await readFile(file, "utf8")).toBe("{}\n");
	});

	it("links this copy for the user when it writes the portable form, unless the project has its own boulder", async () => {
		const cwd = path.join(dir, "proj");
		const root = path.join(dir, "pkg");
		await mkdir(cwd);

		const result = await installClaudeCodeWithNotes({ scope: "project", cwd, env: env(), root });

		const link = hookLinkFile(env());
		expect(link).toBe(path.join(home(), ".local", "share", "boulder", "claude-code-hook.cjs"));
		expect(hookLinkTarget(await readFile(link, "utf8"))).toBe(program.bundle);
		expect(result.notes.join("\n")).toContain(link);
		expect(hookLinkFile({ ...env(), XDG_DATA_HOME: "/data" })).toBe("/data/boulder/claude-code-hook.cjs");

		const own = path.join(cwd, "node_modules", "boulder-agent");
		await mkdir(path.join(own, "dist", "hook"), { recursive: true });
		await writeFile(path.join(own, "dist", "hook", "claude-code.cjs"), "// the project's own");
		await rm(link);
		const again = await installClaudeCodeWithNotes({ scope: "project", cwd, env: env(), root: own });
		expect(existsSync(link)).toBe(false);
		expect(again.report.action).toBe("unchanged");
	});

	it("says which form it wrote: portable for the project, pinned (and where to) for local and user", async () => {
		const cwd = path.join(dir, "proj");
		const root = path.join(dir, "pkg");

		const project = await installClaudeCodeWithNotes({ scope: "project", cwd, env: env(), root });
		const local = await installClaudeCodeWithNotes({ scope: "local", cwd, env: env(), root });

		expect(project.notes.join("\n")).toMatch(/no path of this machine.*Teammates need boulder-agent installed/s);
		expect(local.notes.join("\n")).toMatch(/pinned to this machine/);
		expect(local.notes.join("\n")).toContain(program.bundle);
		const localText = await readFile(local.report.file, "utf8");
		expect(localText).toContain(program.bundle);
		expect(await readFile(project.report.file, "utf8")).not.toContain(dir);
	});

	it("turns the todo tools on only when asked (--todo-tools), and says either way what it did or what to run", async () => {
		const cwd = path.join(dir, "proj");
		const root = path.join(dir, "pkg");

		const plain = await installClaudeCodeWithNotes({ scope: "local", cwd, env: env(), root });
		expect(JSON.parse(await readFile(plain.report.file, "utf8")).env).toBeUndefined();
		expect(plain.remarks.join("\n")).toContain("boulder install claude-code --local --todo-tools");

		const asked = await installClaudeCodeWithNotes({ scope: "local", cwd, env: env(), root, todoTools: true });
		expect(asked.report.action).toBe("updated");
		expect(JSON.parse(await readFile(asked.report.file, "utf8")).env).toEqual({ CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" });
		expect(asked.remarks.join("\n")).toMatch(
			/Set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the env of .*settings\.local\.json/,
		);

		const again = await installClaudeCodeWithNotes({ scope: "local", cwd, env: env(), root });
		expect(again.report.action).toBe("unchanged");
		expect(again.remarks.join("\n")).toMatch(/already set/);
		await uninstallClaudeCode({ scope: "local", cwd, env: env() });
		expect(JSON.parse(await readFile(asked.report.file, "utf8"))).toEqual({
			env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
		});
	});

	it("refuses a file that is not JSON and leaves it untouched, with no backup", async () => {
		const cwd = path.join(dir, "proj");
		const file = path.join(cwd, ".claude", "settings.json");
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, '{"model": "opus",,}');

		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).rejects.toMatchObject({
			code: "settings-invalid",
		});
		expect(await readFile(file, "utf8")).toBe('{"model": "opus",,}');
		expect(await readdir(path.dirname(file))).toEqual(["settings.json"]);
		expect(existsSync(stateOf())).toBe(false);
	});

	it("refuses to install a copy of boulder whose hook program was not built", async () => {
		await expect(
			installClaudeCode({ scope: "project", cwd: dir, env: env(), program: { ...program, bundle: "/nowhere/x.js" } }),
		).rejects.toThrow(/was not built/);
		await expect(
			installClaudeCode({ scope: "project", cwd: dir, env: env(), root: path.join(dir, "nowhere") }),
		).rejects.toThrow(/was not built/);
	});

	it("uninstall says so when there is nothing to remove", async () => {
		const cwd = path.join(dir, "proj");

		expect(await uninstallClaudeCode({ scope: "project", cwd, env: env() })).toMatchObject({ action: "absent" });
		expect(existsSync(path.join(cwd, ".claude"))).toBe(false);
	});
});
