/**
 * A new user's journey with OpenCode, using only the packed tarball: a fresh
 * HOME and an empty git repository whose opencode.json already names their
 * model; `npm install -g` of the tarball (into a throwaway prefix);
 * `boulder install opencode --project`, which writes the package name and
 * links OpenCode's package cache to the installed boulder; the real
 * `opencode serve`, restarted to load it, on a lazy agent that boulder carries
 * to the end of its list; `boulder why`; `boulder uninstall opencode
 * --project`, after which the repository is what it was, byte for byte.
 *
 * Nothing reaches a real package registry: OpenCode's own startup install is
 * pre-seeded by the runner, the plugin comes from the cache link, and
 * OpenCode's registry is a local stand-in that answers 404 and records what
 * it was asked. A teammate whose machine has no boulder shows what the package
 * name costs them: OpenCode asks the registry, finds nothing, and carries on
 * without the plugin.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plainPath } from "./support/journey.js";
import { endsInNudge } from "./support/nudges.js";
import { type ModelStep, type ScriptedModelServer, startModelServer } from "./support/openai-server.js";
import { type OpencodeServer, startOpencode } from "./support/opencode-run.js";
import { type GlobalInstall, installGlobally, packedPackage, snapshot } from "./support/packed-package.js";
import { waitOutSilence } from "./support/suite.js";
import { opencodeTodoWrite, statusesAt } from "./support/todo-steps.js";

const run = promisify(execFile);
const TEST_TIMEOUT_MS = 240_000;

let prefixRoot: string;
let installed: GlobalInstall;
let model: ScriptedModelServer;
let oc: OpencodeServer;
let registry: Server;
/** What OpenCode asked the stand-in registry for. */
const asked: string[] = [];

beforeAll(async () => {
	const packed = await packedPackage();
	prefixRoot = await realpath(await mkdtemp(join(tmpdir(), "boulder-journey-npm-")));
	installed = await installGlobally(packed.tarball, join(prefixRoot, "prefix"));
	registry = createServer((request, response) => {
		asked.push(`${request.method} ${request.url}`);
		response.writeHead(404, { "content-type": "application/json" });
		response.end('{"error":"Not found"}');
	});
	await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
	model = await startModelServer({ fallback: { text: "Nothing more to do." } });
	// The user's project before boulder: a git repository whose opencode.json names their model.
	oc = await startOpencode({ modelServerUrl: model.baseUrl, env: registryEnv() });
}, TEST_TIMEOUT_MS);

afterAll(async () => {
	await oc?.dispose();
	await model?.close();
	registry?.close();
	if (prefixRoot) await rm(prefixRoot, { recursive: true, force: true });
});

/** Points OpenCode's npm at the stand-in registry. */
function registryEnv(): Record<string, string> {
	return { npm_config_registry: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/` };
}

/** The user's environment: the server's HOME and XDG folders, the prefix's bin first on a plain PATH. */
function userEnv(): NodeJS.ProcessEnv {
	const home = oc.homeDir;
	return {
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_STATE_HOME: join(home, ".local", "state"),
		XDG_CACHE_HOME: join(home, ".cache"),
		PATH: `${installed.bin}${delimiter}${plainPath()}`,
		NO_COLOR: "1",
	};
}

async function boulder(...args: string[]): Promise<string> {
	try {
		return (await run("boulder", args, { cwd: oc.projectDir, env: userEnv() })).stdout;
	} catch (error) {
		const failed = error as { stdout?: string; stderr?: string };
		throw new Error(`boulder ${args.join(" ")} failed:\n${failed.stdout}\n${failed.stderr}`);
	}
}

function todoWrite(done: number, total: number): ModelStep {
	return opencodeTodoWrite(statusesAt(done, total));
}

function nudges(): number {
	return model.mainRequests().filter(endsInNudge).length;
}

describe("a new user installs boulder from the tarball and uses it with OpenCode", () => {
	it(
		"adds it to opencode.json by package name (no path of this machine; OpenCode loads the installed copy from its cache), finishes a lazy agent's list, explains it, and uninstalls to the same bytes",
		async () => {
			const skip = (path: string) => path === ".git" || path === ".boulder" || path === ".opencode";
			const before = await snapshot(oc.projectDir, skip);
			const config = await readFile(join(oc.projectDir, "opencode.json"), "utf8");

			const said = await boulder("install", "opencode", "--project");

			expect(said).toMatch(/Installed boulder's OpenCode plugin/);
			expect(said).toMatch(/package name/);
			const installedConfig = JSON.parse(await readFile(join(oc.projectDir, "opencode.json"), "utf8"));
			expect(installedConfig.plugin).toEqual(["boulder-agent"]);
			for (const path of [prefixRoot, oc.homeDir, oc.projectDir]) {
				expect(JSON.stringify(installedConfig)).not.toContain(path);
			}
			const cached = join(oc.homeDir, ".cache", "opencode", "packages", "boulder-agent@latest", "node_modules");
			expect(await realpath(join(cached, "boulder-agent"))).toBe(await realpath(installed.root));

			await oc.restart();
			model.setScenario([
				todoWrite(0, 3),
				{ text: "Item A is under way; stopping here." },
				todoWrite(1, 3),
				{ text: "Finished item A." },
				todoWrite(2, 3),
				{ text: "Finished item B." },
				todoWrite(3, 3),
				{ text: "All three items are done." },
			]);
			const { sessionID } = await oc.startTurn("Work through the list.");
			await model.waitForMainRequests(8, 90_000);
			await oc.waitForSettled(sessionID);

			expect(model.overruns).toBe(0);
			expect(nudges()).toBe(3);
			// OpenCode asks the registry about boulder-agent once in a session even when its cache holds it;
			// with nothing there it keeps the linked copy, and no package is ever downloaded.
			expect(asked.filter((request) => !request.startsWith("GET /boulder-agent"))).toEqual([]);
			expect(await realpath(join(cached, "boulder-agent"))).toBe(await realpath(installed.root));
			const why = await boulder("why");
			expect(why).toMatch(/continued/);
			expect(why).toMatch(/complete/i);
			expect(await boulder("doctor")).toMatch(
				/loads boulder by package name \(boulder \d+\.\d+\.\d+, from .*linked in/,
			);

			const removed = await boulder("uninstall", "opencode", "--project");

			expect(removed).toMatch(/Removed boulder's OpenCode plugin \(1 entry\)/);
			expect(await readFile(join(oc.projectDir, "opencode.json"), "utf8")).toBe(config);
			expect(await snapshot(oc.projectDir, skip)).toEqual(before);
			const status = await run("git", ["status", "--porcelain", "--", ".", ":!.opencode", ":!opencode.json"], {
				cwd: oc.projectDir,
			});
			expect(status.stdout).toBe("");
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"leaves a teammate without boulder an OpenCode that asks the registry for it, finds none, and works on without it",
		async () => {
			const teammateModel = await startModelServer({ fallback: { text: "Nothing more to do." } });
			const teammate = await startOpencode({
				modelServerUrl: teammateModel.baseUrl,
				plugins: ["boulder-agent"],
				env: registryEnv(),
			});
			try {
				teammateModel.setScenario([todoWrite(0, 3), { text: "Item A is under way; stopping here." }]);
				const { sessionID, from } = await teammate.startTurn("Work through the list.");
				await teammateModel.waitForMainRequests(2, 60_000);
				// No boulder here: nothing decides, so the turn's idle is the end; silence shows no nudge follows.
				await teammate.waitForIdle(sessionID, { from, timeoutMs: 60_000 });
				await waitOutSilence();

				expect(asked.filter((request) => request.includes("boulder-agent")).length).toBeGreaterThan(0);
				expect(teammateModel.mainRequests()).toHaveLength(2);
				expect(teammate.logs()).not.toMatch(/level=ERROR.*boulder/);
			} finally {
				await teammate.dispose();
				await teammateModel.close();
			}
		},
		TEST_TIMEOUT_MS,
	);
});
