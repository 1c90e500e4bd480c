/**
 * One doctor for the command-hook family: the same broken install reads the
 * same in every harness (a missing registration is a warning, another
 * version of boulder a warning read from the package the hooks run, a
 * program gone a problem, portable hooks that find no boulder a problem),
 * whatever the harness's files look like. Each harness installed for real in
 * a temp folder, through the family's installer, with a built copy of
 * boulder of its own.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkHooks, type HooksDoctor } from "../../../src/adapters/command-hook/doctor.js";
import { fileFor, type HooksInstall, installHooks, type Place } from "../../../src/adapters/command-hook/install.js";
import { CA_CERTS_HANDOVER, HAND_OVER } from "../../../src/adapters/shared/hook-form.js";
import type { DoctorFinding } from "../../../src/engine/doctor-types.js";

interface Harness {
	install: HooksInstall;
	doctor: HooksDoctor;
}

const HARNESSES: Record<string, () => Promise<Harness>> = {
	"claude-code": async () => ({
		install: (await import("../../../src/adapters/claude-code/install.js")).install,
		doctor: (await import("../../../src/adapters/claude-code/doctor.js")).doctor,
	}),
	codex: () => import("../../../src/adapters/codex/dialect.js"),
	qwen: () => import("../../../src/adapters/qwen/dialect.js"),
	gemini: () => import("../../../src/adapters/gemini/dialect.js"),
	copilot: () => import("../../../src/adapters/copilot/dialect.js"),
	droid: () => import("../../../src/adapters/droid/dialect.js"),
};

let dir: string;
let place: Place;
let root: string;

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), "boulder-family-doctor-"));
	const home = path.join(dir, "home");
	place = {
		cwd: path.join(dir, "project"),
		env: {
			HOME: home,
			PATH: "",
			XDG_STATE_HOME: path.join(dir, "state"),
			XDG_DATA_HOME: path.join(dir, "data"),
			CLAUDE_CODE_ENABLE_TODO_TOOLS: "1",
			QWEN_CODE_STOP_HOOK_BLOCK_CAP: "100",
		},
	};
	await mkdir(place.cwd, { recursive: true });
	await mkdir(path.join(home, ".factory"), { recursive: true });
	root = path.join(dir, "boulder");
});

afterEach(() => rm(dir, { recursive: true, force: true }));

/** A built copy of boulder of `version` at `root`, with the harness's hook program. */
async function boulderCopy(spec: HooksInstall, version: string): Promise<void> {
	const bundle = path.join(root, spec.command.bundle);
	await mkdir(path.dirname(bundle), { recursive: true });
	await writeFile(bundle, "// the hook\n");
	await writeFile(path.join(root, "package.json"), JSON.stringify({ name: "boulder-agent", version }));
}

/** The scope whose hooks are pinned: the first that is not the project's. */
const pinnedScope = (spec: HooksInstall) => Object.keys(spec.where).find((scope) => scope !== "project") as string;

/**
 * What the family's doctor says about one file: the harness's words, without
 * the checks of what only it has (Codex's trust, a cap, the todo tools).
 */
async function about(harness: Harness, file: string): Promise<DoctorFinding[]> {
	const doctor = { ...harness.doctor, judge: undefined, installed: undefined };
	return (await checkHooks(harness.install, doctor, place, "1.2.3")).filter((finding) => finding.file === file);
}

/** The harness's portable hooks installed for the project, with this version as its devDependency (which they run first). */
async function installedForTheProject(name: string): Promise<{ harness: Harness; file: string }> {
	const harness = await (HARNESSES[name] as () => Promise<Harness>)();
	root = path.join(place.cwd, "node_modules", "boulder-agent");
	await boulderCopy(harness.install, "1.2.3");
	await installHooks(harness.install, { ...place, scope: "project", root });
	return { harness, file: await fileFor(harness.install, "project", place) };
}

/** Takes one event's hooks out of the installed file, as a hand edit would. */
async function dropEvent(spec: HooksInstall, file: string, event: string): Promise<void> {
	const value = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
	const map = (spec.eventMapFile === path.basename(file) ? value : value.hooks) as Record<string, unknown>;
	delete map[event];
	await writeFile(file, JSON.stringify(value, null, 2));
}

describe("the family's install data", () => {
	it("spells each portable command with the project-folder variable its dialect reads", async () => {
		for (const [name, load] of Object.entries(HARNESSES)) {
			const { dialect } = (await import(`../../../src/adapters/${name}/dialect.ts`)) as {
				dialect: { projectDirVar: string | null };
			};
			expect({ name, variable: (await load()).install.command.projectDirVar }).toEqual({
				name,
				variable: dialect.projectDirVar,
			});
		}
	});
});

describe.each(Object.keys(HARNESSES))("boulder doctor for %s", (name) => {
	it("is content with a current pinned install, and says the same as every harness of each way it breaks", async () => {
		const harness = await (HARNESSES[name] as () => Promise<Harness>)();
		const spec = harness.install;
		const scope = pinnedScope(spec);
		await boulderCopy(spec, "1.2.3");
		await installHooks(spec, { ...place, scope, root });
		const file = await fileFor(spec, scope, place);
		expect((await about(harness, file)).map((finding) => finding.level)).toEqual(["ok"]);

		const last = spec.registrations[spec.registrations.length - 1]?.event as string;
		await dropEvent(spec, file, last);
		expect(await about(harness, file)).toEqual([
			expect.objectContaining({ level: "warn", message: expect.stringContaining(`miss ${last}`) }),
		]);

		await installHooks(spec, { ...place, scope, root });
		await boulderCopy(spec, "0.9.0");
		expect(await about(harness, file)).toEqual([
			expect.objectContaining({
				level: "warn",
				message: expect.stringMatching(/run boulder 0\.9\.0.*this is 1\.2\.3/),
				fix: `\`boulder install ${name} --${scope}\``,
			}),
		]);

		await rm(path.join(root, spec.command.bundle));
		expect(await about(harness, file)).toEqual([
			expect.objectContaining({ level: "problem", message: expect.stringContaining("does not exist") }),
		]);
	});

	it("tells hooks written before they set NODE_EXTRA_CA_CERTS aside, only where it is set", async () => {
		const { harness, file } = await installedForTheProject(name);
		const current = await readFile(file, "utf8");
		// The commands as an earlier boulder wrote them: the same, without the handover (as the JSON file spells it).
		await writeFile(file, current.replaceAll(JSON.stringify(`${HAND_OVER} `).slice(1, -1), ""));
		expect(await readFile(file, "utf8")).not.toContain(CA_CERTS_HANDOVER);

		expect((await about(harness, file)).map((finding) => finding.level)).toEqual(["ok"]);
		place.env.NODE_EXTRA_CA_CERTS = "/etc/ssl/corporate.pem";
		expect(await about(harness, file)).toEqual([
			expect.objectContaining({
				level: "warn",
				message: expect.stringContaining("start node with NODE_EXTRA_CA_CERTS"),
				fix: `\`boulder install ${name} --project\``,
			}),
		]);
		await writeFile(file, current);
		expect((await about(harness, file)).map((finding) => finding.level)).toEqual(["ok"]);
	});

	it("calls portable hooks that find no boulder here a problem, in every harness", async () => {
		const { harness, file } = await installedForTheProject(name);
		expect((await about(harness, file)).map((finding) => finding.level)).toEqual(["ok"]);

		await rm(root, { recursive: true });
		expect(await about(harness, file)).toEqual([
			expect.objectContaining({ level: "problem", message: expect.stringContaining("find no") }),
		]);
	});
});
