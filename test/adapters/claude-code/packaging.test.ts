/**
 * The package and the plugins are hand-kept text; these tests keep them in
 * step with the code: the hooks each plugin registers are the installer's,
 * versions are the package's, every slash command runs a boulder the plugin
 * can reach, the marketplace plugin needs no build, and the npm package
 * declares exactly the runtime dependencies the code imports.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
	HOOK_BIN,
	HOOK_BUNDLE,
	HOOK_LINK,
	hookCommand,
	LINK_GONE_NOTICE,
	NOT_INSTALLED_NOTICE,
	PLUGIN_ROOT,
	parseOurCommand,
	REGISTRATIONS,
	shellWord,
} from "../../../src/adapters/claude-code/dialect.js";
import { HOOK_EVENTS } from "../../../src/adapters/claude-code/events.js";
import { hooksObject } from "../../../src/adapters/claude-code/install.js";
import { STOP_TIMEOUT_SECONDS, watchdogMs, wordOf } from "../../../src/adapters/command-hook/registrations.js";
import { PORTABLE } from "../../../src/adapters/shared/hook-form.js";
import { DEFAULT_CONFIG } from "../../../src/core/default-config.js";

const root = new URL("../../../", import.meta.url);
const readJson = async (file: string) => JSON.parse(await readFile(new URL(file, root), "utf8"));
const COMMANDS = [
	["stop", "stop"],
	["go", "go"],
	["status", "status"],
	["start", "start $ARGUMENTS"],
	["why", 'why --session "$CLAUDE_CODE_SESSION_ID"'],
] as const;

describe("the package's own plugin (its root, for `--plugin-dir`)", () => {
	it("registers exactly the installer's hooks, run from the plugin's root", async () => {
		const hooks = await readJson("hooks/hooks.json");

		expect(hooks.hooks).toEqual(
			hooksObject({ node: "node", bundle: `${PLUGIN_ROOT}/${HOOK_BUNDLE}`, version: "plugin" }),
		);
		expect(PLUGIN_ROOT).toBe("$" + "{CLAUDE_PLUGIN_ROOT}");
		expect(hooks.hooks.Stop[0].hooks[0].command).toBe(
			`node "${PLUGIN_ROOT}/dist/hook/claude-code.cjs" Stop --boulder-hook=plugin`,
		);
	});

	it("carries the package's name and version", async () => {
		const plugin = await readJson(".claude-plugin/plugin.json");
		const manifest = await readJson("package.json");

		expect(plugin).toMatchObject({ name: "boulder", version: manifest.version, description: expect.any(String) });
	});

	it("has the five slash commands, each running the CLI that ships with the plugin", async () => {
		for (const [name, command] of COMMANDS) {
			const text = await readFile(new URL(`commands/${name}.md`, root), "utf8");
			expect(text).toMatch(/^---\ndescription: .+\n/);
			expect(text).toContain("allowed-tools: Bash(node:*)");
			expect(text).toContain(`!\`node "\${CLAUDE_PLUGIN_ROOT}/bin/boulder.js" ${command}`);
		}
	});
});

describe("the marketplace and its plugin (plugins/boulder, installed by Claude Code without a build)", () => {
	it("lists one plugin, boulder, at ./plugins/boulder, whose manifest agrees with it and with the package", async () => {
		const marketplace = await readJson(".claude-plugin/marketplace.json");
		const plugin = await readJson("plugins/boulder/.claude-plugin/plugin.json");
		const manifest = await readJson("package.json");

		expect(marketplace).toMatchObject({ name: "boulder", owner: { name: expect.any(String) } });
		expect(marketplace.plugins).toEqual([
			expect.objectContaining({ name: "boulder", source: "./plugins/boulder", version: manifest.version }),
		]);
		expect(plugin).toMatchObject({ name: "boulder", version: manifest.version, description: expect.any(String) });
	});

	it("registers the installer's portable hooks: the boulder installed for the project or the user, no build of its own", async () => {
		const hooks = await readJson("plugins/boulder/hooks/hooks.json");

		expect(hooks.hooks).toEqual(hooksObject(PORTABLE));
		expect(JSON.stringify(hooks)).not.toContain("CLAUDE_PLUGIN_ROOT");
	});

	it("has the same five slash commands as the package's plugin, each running `boulder` from the PATH", async () => {
		const names = (await readdir(new URL("plugins/boulder/commands/", root))).sort();
		expect(names).toEqual((await readdir(new URL("commands/", root))).sort());
		for (const [name, command] of COMMANDS) {
			const text = await readFile(new URL(`plugins/boulder/commands/${name}.md`, root), "utf8");
			const own = await readFile(new URL(`commands/${name}.md`, root), "utf8");
			expect(text).toContain("allowed-tools: Bash(boulder:*)");
			expect(text).toContain(`!\`boulder ${command}`);
			expect(text.replace(/^allowed-tools: .*$/m, "").replaceAll("boulder ", "B ")).toBe(
				own
					.replace(/^allowed-tools: .*$/m, "")
					.replaceAll(`node "\${CLAUDE_PLUGIN_ROOT}/bin/boulder.js" `, "B ")
					.replaceAll("boulder ", "B "),
			);
		}
	});

	it("holds no package.json or lockfile, so Claude Code installs no dependencies into it", async () => {
		const files = await readdir(new URL("plugins/boulder/", root), { recursive: true });

		expect(files.filter((file) => /package(-lock)?\.json$|lock/.test(file))).toEqual([]);
	});
});

describe("the npm package", () => {
	it("puts the hook program on the PATH under the name the portable hooks look for", async () => {
		const manifest = await readJson("package.json");

		expect(manifest.bin).toEqual({
			boulder: "./bin/boulder.js",
			[HOOK_BIN]: `./${HOOK_BUNDLE}`,
			"boulder-hook": "./dist/hook/boulder-hook.cjs",
		});
		expect(HOOK_LINK).toBe("boulder/claude-code-hook.cjs");
	});

	it("builds before it is packed and when installed from git, and ships the plugins but no source maps", async () => {
		const manifest = await readJson("package.json");

		expect(manifest.scripts.prepack).toMatch(/npm run build$/);
		expect(manifest.scripts.prepare).toBe("node scripts/prepare.mjs");
		expect(manifest.files).toEqual(
			expect.arrayContaining(["bin", "dist", "!dist/**/*.map", ".claude-plugin", "plugins", "hooks", "commands"]),
		);
	});

	it("depends at run time on exactly the packages the code imports at run time (types only are not imports)", async () => {
		const manifest = await readJson("package.json");
		const imported = new Set<string>();
		const src = fileURLToPath(new URL("src/", root));
		for (const file of await readdir(src, { recursive: true })) {
			if (!file.endsWith(".ts")) continue;
			const text = await readFile(path.join(src, file), "utf8");
			const statics = text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+"([^".][^"]*)"/gms);
			// Loaded lazily through a require made with createRequire: `load("pg")`, `createRequire(…)("pg")`.
			const lazy = text.matchAll(/(?:\bload|\brequire|\))\(\s*"([^".][^"]*)"\s*\)/g);
			for (const match of [...statics, ...lazy]) {
				const specifier = match[1] as string;
				if (specifier.startsWith("node:")) continue;
				const parts = specifier.split("/");
				imported.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string));
			}
		}
		// Optional peers are loaded only when the user asked for them (OpenTelemetry), and say how to install them.
		const optional = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
			(name) => manifest.peerDependenciesMeta[name].optional === true,
		);
		for (const name of optional) expect(imported.has(name), name).toBe(true);

		expect(Object.keys(manifest.dependencies).sort()).toEqual(
			[...imported].filter((name) => !optional.includes(name)).sort(),
		);
	});

	it("makes the hook loader runnable as a program", async () => {
		const loader = await readFile(new URL("src/adapters/hook/loader.ts", root), "utf8");

		expect(loader.startsWith("#!/usr/bin/env node\n")).toBe(true);
	});
});

describe("hook commands", () => {
	it("read back what they were written as, whatever the paths hold", () => {
		for (const bundle of [
			"/opt/boulder/dist/hook/claude-code.cjs",
			"/Users/Jo Doe/it's here/claude-code.js",
			"/a/$HOME/`x`",
		]) {
			const program = { node: "/usr/bin/node", bundle, version: "1.0.0-beta.2" };
			for (const event of REGISTRATIONS.map(wordOf)) {
				expect(parseOurCommand(hookCommand(program, event))).toEqual({
					form: "pinned",
					node: "/usr/bin/node",
					bundle,
					event,
					version: "1.0.0-beta.2",
				});
			}
		}
		for (const event of REGISTRATIONS.map(wordOf)) {
			expect(parseOurCommand(hookCommand(PORTABLE, event))).toEqual({ form: "portable", event });
		}
	});

	it("are never read as someone else's command, nor someone else's as ours", () => {
		expect(parseOurCommand("~/bin/notify.sh stop")).toBeNull();
		expect(parseOurCommand("boulder hook claude-code Stop")).toBeNull();
		expect(parseOurCommand(42)).toBeNull();
		expect(parseOurCommand("echo --boulder-hook=1")).toBeNull();
		expect(parseOurCommand("echo Stop --boulder-hook=portable; exit 0")).toBeNull();
	});

	it("in the portable form, look in the project, then the user's link, then the PATH, and print a notice only at session start", () => {
		const start = hookCommand(PORTABLE, "SessionStart");
		const stop = hookCommand(PORTABLE, "Stop");

		expect(stop).toBe(
			[
				'h="$CLAUDE_PROJECT_DIR/node_modules/boulder-agent/dist/hook/claude-code.cjs"',
				`[ -f "$h" ] || h="\${XDG_DATA_HOME:-$HOME/.local/share}/boulder/claude-code-hook.cjs"`,
				'[ -f "$h" ] && BOULDER_NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= exec node "$h" Stop --boulder-hook=portable',
				'command -v boulder-claude-code-hook >/dev/null && BOULDER_NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= exec boulder-claude-code-hook Stop --boulder-hook=portable',
				"exit 0",
			].join("; "),
		);
		expect(start).toMatch(/; echo '\{"systemMessage":"boulder: [^']+"\}'$/);
		expect(JSON.parse(/echo '(.*)'$/.exec(start)?.[1] ?? "")).toEqual({ systemMessage: NOT_INSTALLED_NOTICE });
		for (const notice of [NOT_INSTALLED_NOTICE, LINK_GONE_NOTICE]) expect(notice).not.toMatch(/['\n]/);
	});

	it("quote for the shell only when needed, keeping the plugin root expandable", () => {
		expect(shellWord("/usr/bin/node")).toBe("/usr/bin/node");
		expect(shellWord("/a b/c")).toBe("'/a b/c'");
		expect(shellWord(`${PLUGIN_ROOT}/dist/x.js`)).toBe(`"${PLUGIN_ROOT}/dist/x.js"`);
		expect(shellWord("it's")).toBe(`'it'\\''s'`);
	});

	it("cover only events the hook program understands", () => {
		for (const { event } of REGISTRATIONS) expect(HOOK_EVENTS).toContain(event);
	});

	it("give the Stop hook room for a verify command at its default timeout, and end before the harness kills them", () => {
		expect(STOP_TIMEOUT_SECONDS * 1000).toBeGreaterThan(DEFAULT_CONFIG.verifyTimeoutMs * 2);
		for (const registration of REGISTRATIONS) {
			expect(watchdogMs(REGISTRATIONS, wordOf(registration))).toBeLessThan(registration.timeout * 1000);
			expect(watchdogMs(REGISTRATIONS, wordOf(registration))).toBeGreaterThan(0);
		}
	});
});
