/**
 * The packed tarball, unpacked as a user's project gets it: it holds only
 * what runs (scripts/pack-list.mjs leaves out the modules nothing loads),
 * and what it holds is whole — every export imports at run time, every
 * export's types check from outside, and the programs are there.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../", import.meta.url));

interface Pkg {
	exports: Record<string, { types?: string; import: string }>;
	bin: Record<string, string>;
}

describe("the packed tarball", () => {
	let place: string;
	let unpacked: string;
	let pkg: Pkg;

	beforeAll(async () => {
		place = await mkdtemp(path.join(tmpdir(), "boulder-tarball-"));
		const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", place], {
			cwd: REPO,
		});
		const [packed] = JSON.parse(stdout) as { filename: string }[];
		if (!packed) throw new Error(`npm pack printed no package: ${stdout}`);
		const { filename } = packed;
		const modules = path.join(place, "node_modules");
		unpacked = path.join(modules, "boulder-agent");
		await mkdir(unpacked, { recursive: true });
		await run("tar", ["-xzf", path.join(place, filename), "-C", unpacked, "--strip-components=1"]);
		// The package's own dependencies (and the type packages its declarations name), as npm would install them beside it.
		for (const name of await readdir(path.join(REPO, "node_modules"))) {
			if (name.startsWith(".")) continue;
			await symlink(path.join(REPO, "node_modules", name), path.join(modules, name));
		}
		pkg = JSON.parse(await readFile(path.join(unpacked, "package.json"), "utf8")) as Pkg;
	}, 120_000);

	afterAll(async () => {
		if (place) await rm(place, { recursive: true, force: true });
	});

	it("leaves out the modules only the bundles were built from", async () => {
		const shipped = await readdir(path.join(unpacked, "dist", "cli"));
		expect(shipped.filter((name) => name.endsWith(".js"))).toEqual([]);
		expect(shipped).toContain("boulder-main.cjs");
	});

	it("imports every export at run time", async () => {
		const specifiers = Object.keys(pkg.exports)
			.filter((key) => key !== "./package.json")
			.map((key) => `boulder-agent${key.slice(1)}`);
		expect(specifiers.length).toBeGreaterThan(3);
		const script = specifiers.map((s) => `await import(${JSON.stringify(s)});`).join("\n");
		await writeFile(path.join(place, "imports.mjs"), `${script}\nconsole.log("ok");\n`);
		const { stdout } = await run(process.execPath, [path.join(place, "imports.mjs")], { cwd: place });
		expect(stdout.trim()).toBe("ok");
	}, 60_000);

	it("type-checks every export's declarations from a user's project", async () => {
		const typed = Object.entries(pkg.exports).filter(([, entry]) => entry.types !== undefined);
		expect(typed.length).toBeGreaterThan(3);
		const lines = typed.map(
			([key], n) => `import type * as m${n} from "boulder-agent${key.slice(1)}";\nexport type T${n} = typeof m${n};`,
		);
		await writeFile(path.join(place, "consumer.ts"), `${lines.join("\n")}\n`);
		const config = {
			compilerOptions: {
				module: "NodeNext",
				moduleResolution: "NodeNext",
				target: "ES2022",
				strict: true,
				noEmit: true,
				skipLibCheck: false,
				types: ["node"],
			},
			files: ["consumer.ts"],
		};
		await writeFile(path.join(place, "tsconfig.json"), JSON.stringify(config));
		await writeFile(path.join(place, "package.json"), JSON.stringify({ type: "module" }));
		const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
		const result = await run(process.execPath, [tsc, "-p", place], { cwd: place }).then(
			() => "",
			(error: { stdout?: string; stderr?: string }) => error.stdout || error.stderr || "consumer.ts: tsc failed",
		);
		// Only errors in boulder's own declarations or in resolving them count: a dependency's types are its own business.
		const ours = result.split("\n").filter((line) => /boulder-agent|consumer\.ts/.test(line));
		expect(ours).toEqual([]);
	}, 120_000);

	it("does a hook's file operations synchronously, and leaves the CLI (and its dashboard) node's own", async () => {
		const hooks = (await readdir(path.join(unpacked, "dist", "hook"))).filter((name) => name.endsWith("-main.cjs"));
		expect(hooks).toContain("claude-code-main.cjs");
		const asynchronous = /require\(["'`](node:)?fs\/promises["'`]\)/;
		for (const name of hooks) {
			const bundle = await readFile(path.join(unpacked, "dist", "hook", name), "utf8");
			// The stand-in (src/adapters/hook/shims/fs-promises.cjs) is there, node's thread-pool `fs/promises` is not.
			expect(bundle, name).toContain("EBADF: file closed");
			expect(bundle, name).not.toMatch(asynchronous);
		}
		const cli = await readFile(path.join(unpacked, "dist", "cli", "boulder-main.cjs"), "utf8");
		expect(cli).toMatch(asynchronous);
		expect(cli).not.toContain("EBADF: file closed");
	});

	it("ships each program the package names", async () => {
		for (const file of Object.values(pkg.bin)) {
			await expect(readFile(path.join(unpacked, file))).resolves.toBeDefined();
		}
	});
});
